/**
 * Questions tools ask a symbol table: what is at this place, where is it declared, where is it used.
 * The answers come from the table alone, so they work on files with errors as well.
 */
import type { SourceSpan } from './ast.js';
import type { IdlSymbol, SymbolReference, SymbolTable } from './symbols.js';

/** Every reference that resolves to `symbol`, in source order. */
export function referencesOf(symbols: SymbolTable, symbol: IdlSymbol): SymbolReference[] {
  return symbols.references.filter((reference) => reference.symbol === symbol);
}

/** A declared name or a reference, where it is written. */
type Occurrence =
  | { span: SourceSpan; symbol: IdlSymbol; declared: true }
  | { span: SourceSpan; reference: SymbolReference; declared: false };

const occurrencesByTable = new WeakMap<SymbolTable, Occurrence[]>();

/** The names of a table by start offset, built on the first question and kept with the table. */
function occurrencesOf(symbols: SymbolTable): Occurrence[] {
  let occurrences = occurrencesByTable.get(symbols);
  if (!occurrences) {
    occurrences = [
      ...symbols.declarations.map((symbol): Occurrence => ({ span: symbol.nameSpan, symbol, declared: true })),
      ...symbols.references.map((reference): Occurrence => ({ span: reference.span, reference, declared: false })),
    ].sort((a, b) => a.span.start.offset - b.span.start.offset);
    occurrencesByTable.set(symbols, occurrences);
  }
  return occurrences;
}

/**
 * The name written at `offset` (0-based, UTF-16 units; a place right after a name counts as on it):
 * a declaration's name or a reference. Undefined between names.
 */
function occurrenceAt(symbols: SymbolTable, offset: number): Occurrence | undefined {
  const occurrences = occurrencesOf(symbols);
  // The last name that starts at or before `offset`.
  let low = 0;
  let high = occurrences.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (occurrences[mid].span.start.offset <= offset) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (found === -1) return undefined;
  const occurrence = occurrences[found];
  return offset <= occurrence.span.end.offset ? occurrence : undefined;
}

/**
 * The declaration named at `offset`: the one whose name is written there, or the one a reference
 * written there resolves to. Its `nameSpan` is the definition to go to. Undefined between names and
 * on an unresolved reference (see {@link referenceAt}).
 */
export function symbolAt(symbols: SymbolTable, offset: number): IdlSymbol | undefined {
  const occurrence = occurrenceAt(symbols, offset);
  if (!occurrence) return undefined;
  return occurrence.declared ? occurrence.symbol : occurrence.reference.symbol;
}

/** The reference written at `offset`, resolved or not; undefined elsewhere (on a declared name too). */
export function referenceAt(symbols: SymbolTable, offset: number): SymbolReference | undefined {
  const occurrence = occurrenceAt(symbols, offset);
  return occurrence && !occurrence.declared ? occurrence.reference : undefined;
}
