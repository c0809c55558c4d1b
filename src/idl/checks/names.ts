/**
 * `invalid-name`: every declared name can be written in the IDL. Parsed names always can; trees
 * built by code (the OpenAPI converter's) may hold any string.
 */
import { errorAt } from '../diagnostic.js';
import { nameProblem } from '../names.js';
import type { CheckContext } from './context.js';

export function checkNames({ symbols, report }: CheckContext): void {
  for (const symbol of symbols.declarations) {
    // A declaration of an imported namespace is named `<namespace>.<Name>`; the name written is `<Name>`.
    const namespace = 'namespace' in symbol.node ? symbol.node.namespace : undefined;
    const written = typeof namespace === 'string' ? symbol.name.slice(namespace.length + 1) : symbol.name;
    const problem = nameProblem(written);
    if (problem) report(errorAt('invalid-name', problem, symbol.nameSpan, { length: symbol.name.length }));
  }
}
