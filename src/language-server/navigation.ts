/**
 * Go to definition and find references: type names, `extends` parents, `raises` errors, enum
 * values, error names, qualified names of imported files (`common.Money`) and `import "path"` lines.
 */
import path from 'node:path';
import type { Location } from 'vscode-languageserver/node';
import type { SourceSpan } from '../idl/ast.js';
import { referenceAt, referencesOf, symbolAt } from '../idl/symbol-queries.js';
import type { IdlSymbol } from '../idl/symbols.js';
import type { Analysis, ImportedFile } from './analysis.js';
import { toRange } from './positions.js';

/** The declaration named at a place of the document, where it is declared, and the name's span there. */
export interface SymbolUnder {
  symbol: IdlSymbol;
  /** The imported file that declares it; undefined for the document's own declarations. */
  importedFrom?: ImportedFile;
  /** `common.` for a declaration of an imported namespace, else empty. */
  qualifier: string;
  /** The name as written under the cursor. */
  span: SourceSpan;
}

/** The name at `offset` and the declaration it denotes, in the document or in an imported file. */
export function symbolUnder(analysis: Analysis, offset: number): SymbolUnder | undefined {
  const { symbols } = analysis.tree;
  const reference = referenceAt(symbols, offset);
  if (reference && !reference.symbol) {
    const imported = analysis.importedDeclaration(reference.name, reference.kind === 'raises' ? 'error' : 'type');
    if (!imported) return undefined;
    const qualifier = imported.file.namespace === undefined ? '' : `${imported.file.namespace}.`;
    return { symbol: imported.symbol, importedFrom: imported.file, qualifier, span: reference.span };
  }
  const symbol = symbolAt(symbols, offset);
  if (!symbol) return undefined;
  return { symbol, qualifier: '', span: reference ? reference.span : symbol.nameSpan };
}

/** The file an `import "path"` at `offset` names (resolved like the loader does), if the cursor is on one. */
export function importAt(analysis: Analysis, offset: number): { fileName: string; span: SourceSpan } | undefined {
  for (const declaration of analysis.tree.file.imports ?? []) {
    const span = declaration.pathSpan;
    if (offset >= span.start.offset && offset <= span.end.offset) {
      return { fileName: path.join(path.dirname(analysis.document.fileName), declaration.path), span };
    }
  }
  return undefined;
}

/** Where the name at `offset` is declared; empty when it is not a name or resolves to nothing. */
export function definitionAt(analysis: Analysis, offset: number, uriOf: (fileName: string) => string): Location[] {
  const imported = importAt(analysis, offset);
  if (imported) return [{ uri: uriOf(imported.fileName), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
  const found = symbolUnder(analysis, offset);
  if (!found) return [];
  return [{ uri: found.importedFrom ? uriOf(found.importedFrom.fileName) : analysis.document.uri, range: toRange(found.symbol.nameSpan) }];
}

/**
 * Every place the name at `offset` is used (and declared, with `includeDeclaration`), in source
 * order: in the document, and for a declaration of an imported file also in that file.
 */
export function referencesAt(
  analysis: Analysis,
  offset: number,
  includeDeclaration: boolean,
  uriOf: (fileName: string) => string,
): Location[] {
  const found = symbolUnder(analysis, offset);
  if (!found) return [];
  const { symbol, importedFrom } = found;
  const here = (span: SourceSpan): Location => ({ uri: analysis.document.uri, range: toRange(span) });
  if (!importedFrom) {
    const uses = referencesOf(analysis.tree.symbols, symbol).map((reference) => here(reference.span));
    return includeDeclaration ? [here(symbol.nameSpan), ...uses].sort(bySourceOrder) : uses;
  }
  const there = (span: SourceSpan): Location => ({ uri: uriOf(importedFrom.fileName), range: toRange(span) });
  const written = `${found.qualifier}${symbol.name}`;
  const space = symbol.kind === 'error' ? 'raises' : undefined;
  const usesHere = analysis.tree.symbols.references
    .filter((reference) => !reference.symbol && reference.name === written && (reference.kind === 'raises') === (space === 'raises'))
    .map((reference) => here(reference.span));
  const usesThere = referencesOf(importedFrom.symbols, symbol).map((reference) => there(reference.span));
  return [...(includeDeclaration ? [there(symbol.nameSpan)] : []), ...usesThere, ...usesHere];
}

function bySourceOrder(a: Location, b: Location): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
