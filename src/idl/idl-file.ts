/** Copies of a parsed file's tree that leave what it makes on first read (`detachedComments`) unmade. */
import type { Declaration, IdlFile } from './ast.js';

/**
 * `file` with `declarations` in place of its own. A spread would read every property, and
 * `detachedComments` is made when first read (from the text, or by parsing it again after an edit:
 * reparse.ts), for the formatter alone; the copy reads it from `file` when it is read.
 */
export function withDeclarations(file: IdlFile, declarations: Declaration[]): IdlFile {
  const copy = {} as IdlFile;
  for (const key of Object.keys(file) as (keyof IdlFile)[]) {
    const property = Object.getOwnPropertyDescriptor(file, key)!;
    if (key === 'declarations') copy.declarations = declarations;
    else if (property.get) Object.defineProperty(copy, key, { enumerable: true, configurable: true, get: () => file[key] });
    else Object.defineProperty(copy, key, property);
  }
  return copy;
}
