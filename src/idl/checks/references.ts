/**
 * Every reference must name a declaration of the right kind: `unknown-type` (field, parameter and
 * return types: an enum or struct), `unknown-error` (`raises`: a declared error), and
 * `duplicate-raises` (an error listed twice in one `raises(...)`). `extends` has its own pass.
 *
 * Struct fields are checked first, then the interfaces' methods: "did you mean" has one work budget
 * per file, spent in this order, which fixes which names get a suggestion.
 */
import { errorAt } from '../diagnostic.js';
import type { IdlSymbol, SymbolReference } from '../symbols.js';
import { article, type CheckContext } from './context.js';

export function checkReferences(context: CheckContext): void {
  const { references } = context.symbols;
  const importedTypes = byShortName(context.types.keys());
  const importedErrors = byShortName(context.errorsByName.keys());
  for (const reference of references) {
    if (reference.kind === 'type' && reference.from.kind === 'field') checkTypeReference(context, reference, importedTypes);
  }
  let method: IdlSymbol | undefined;
  let raised = new Set<string>();
  for (const reference of references) {
    if (reference.kind === 'type' && (reference.from.kind === 'parameter' || reference.from.kind === 'method')) {
      checkTypeReference(context, reference, importedTypes);
    } else if (reference.kind === 'raises') {
      if (reference.from !== method) {
        method = reference.from;
        raised = new Set();
      }
      checkRaisedError(context, reference, raised, importedErrors);
    }
  }
}

/** Qualified names (`common.Money`) by their last part (`Money`), for "write it qualified" hints. */
function byShortName(names: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.lastIndexOf('.');
    if (dot === -1) continue;
    const short = name.slice(dot + 1);
    index.set(short, [...(index.get(short) ?? []), name]);
  }
  return index;
}

/** "; names of an imported namespace are written qualified: 'common.Money'", or "" when `name` is no such short name. */
function qualifiedHint(name: string, imported: ReadonlyMap<string, string[]>): string {
  const candidates = name.includes('.') ? undefined : imported.get(name);
  if (!candidates) return '';
  return `; names of an imported namespace are written qualified: ${candidates.map((c) => `'${c}'`).join(' or ')}`;
}

function checkTypeReference(
  { interfacesByName, errorsByName, suggestType, report }: CheckContext,
  reference: SymbolReference,
  imported: ReadonlyMap<string, string[]>,
): void {
  const kind = reference.symbol?.kind;
  if (kind === 'enum' || kind === 'struct' || kind === 'union') return;
  const { name } = reference;
  let message: string;
  if (interfacesByName.has(name)) message = `'${name}' is an interface, not a type: use a struct or enum here`;
  else if (errorsByName.has(name)) message = `'${name}' is a declared error, not a type: use a struct or enum here`;
  else if (name === 'stream') message = "unknown type 'stream': a stream method names the type of its items after it, as in 'stream Order'";
  else message = `unknown type '${name}'${qualifiedHint(name, imported) || suggestType(name)}`;
  report(errorAt('unknown-type', message, reference.span, { length: name.length }));
}

/** `raised`: the errors the method's `raises(...)` listed before this one. */
function checkRaisedError(
  { types, suggestError, report }: CheckContext,
  reference: SymbolReference,
  raised: Set<string>,
  imported: ReadonlyMap<string, string[]>,
): void {
  const { name } = reference;
  if (!reference.symbol) {
    const type = types.get(name);
    const message = type
      ? `'${name}' is ${article(type.kind)}, not a declared error: raises(...) lists names from an errors block`
      : `'${name}' is not a declared error${qualifiedHint(name, imported) || suggestError(name)}`;
    report(errorAt('unknown-error', message, reference.span));
  } else if (raised.has(name)) {
    const method = reference.from.name;
    report(errorAt('duplicate-raises', `'${name}' is listed twice in raises(...) of method '${method}'`, reference.span));
  }
  raised.add(name);
}
