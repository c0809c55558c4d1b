/**
 * `empty-enum`: an enum needs at least one value.
 */
import { errorAt } from '../diagnostic.js';
import type { CheckContext } from './context.js';

export function checkEmptyEnums({ enums, report }: CheckContext): void {
  for (const enumDecl of enums) {
    if (enumDecl.values.length > 0) continue;
    report(errorAt('empty-enum', `enum '${enumDecl.name.text}' has no values: an enum needs at least one`, enumDecl.name.span));
  }
}
