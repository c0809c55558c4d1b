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
  for (const reference of references) {
    if (reference.kind === 'type' && reference.from.kind === 'field') checkTypeReference(context, reference);
  }
  let method: IdlSymbol | undefined;
  let raised = new Set<string>();
  for (const reference of references) {
    if (reference.kind === 'type' && (reference.from.kind === 'parameter' || reference.from.kind === 'method')) {
      checkTypeReference(context, reference);
    } else if (reference.kind === 'raises') {
      if (reference.from !== method) {
        method = reference.from;
        raised = new Set();
      }
      checkRaisedError(context, reference, raised);
    }
  }
}

function checkTypeReference({ interfacesByName, errorsByName, suggestType, report }: CheckContext, reference: SymbolReference): void {
  const kind = reference.symbol?.kind;
  if (kind === 'enum' || kind === 'struct') return;
  const { name } = reference;
  let message: string;
  if (interfacesByName.has(name)) message = `'${name}' is an interface, not a type: use a struct or enum here`;
  else if (errorsByName.has(name)) message = `'${name}' is a declared error, not a type: use a struct or enum here`;
  else message = `unknown type '${name}'${suggestType(name)}`;
  report(errorAt('unknown-type', message, reference.span, { length: name.length }));
}

/** `raised`: the errors the method's `raises(...)` listed before this one. */
function checkRaisedError({ types, suggestError, report }: CheckContext, reference: SymbolReference, raised: Set<string>): void {
  const { name } = reference;
  if (!reference.symbol) {
    const type = types.get(name);
    const message = type
      ? `'${name}' is ${article(type.kind)}, not a declared error: raises(...) lists names from an errors block`
      : `'${name}' is not a declared error${suggestError(name)}`;
    report(errorAt('unknown-error', message, reference.span));
  } else if (raised.has(name)) {
    const method = reference.from.name;
    report(errorAt('duplicate-raises', `'${name}' is listed twice in raises(...) of method '${method}'`, reference.span));
  }
  raised.add(name);
}
