/**
 * `duplicate-field`: a field name declared twice in a struct, or redeclaring a field of a parent
 * (at any depth). Runs after the `extends` pass, on its forest of parents; one walk of it, linear
 * however long the chains are.
 */
import type { Field, StructDecl } from '../ast.js';
import { errorAt, relatedLocation } from '../diagnostic.js';
import type { CheckContext } from './context.js';

/** A field name seen on the way down an `extends` chain, and the struct that declared it first. */
type InheritedField = { field: Field; owner: StructDecl };

export function checkInheritedFields({ structs, parentOf, report }: CheckContext): void {
  forEachStructWithInheritedFields(structs, parentOf, (struct, inherited) => {
    const own = new Map<string, InheritedField>();
    for (const field of struct.fields) {
      const previous = inherited.get(field.name.text) ?? own.get(field.name.text);
      if (!previous) {
        own.set(field.name.text, { field, owner: struct });
        continue;
      }
      const firstName = previous.field.name;
      const where =
        previous.owner === struct
          ? `in struct '${struct.name.text}' on line ${firstName.span.start.line}`
          : `in parent struct '${previous.owner.name.text}' on line ${firstName.span.start.line}`;
      report(
        errorAt('duplicate-field', `field '${field.name.text}' is already declared ${where}`, field.name.span, {
          related: [relatedLocation(`field '${field.name.text}' is first declared here`, firstName.span)],
        }),
      );
    }
    return own;
  });
}

/**
 * Calls `visit` for every struct, parents before children, with the fields its ancestors declare
 * (by name, the root-most declaration of each); `visit` returns the struct's own new ones, which its
 * descendants then see. One walk of the `extends` forest, without recursion: linear however long
 * the chains are. `parentOf` must have no cycle.
 */
function forEachStructWithInheritedFields(
  structs: readonly StructDecl[],
  parentOf: ReadonlyMap<StructDecl, StructDecl>,
  visit: (struct: StructDecl, inherited: ReadonlyMap<string, InheritedField>) => ReadonlyMap<string, InheritedField>,
): void {
  const children = new Map<StructDecl, StructDecl[]>();
  const roots: StructDecl[] = [];
  for (const struct of structs) {
    const parent = parentOf.get(struct);
    if (!parent) roots.push(struct);
    else if (children.has(parent)) children.get(parent)!.push(struct);
    else children.set(parent, [struct]);
  }
  const inherited = new Map<string, InheritedField>();
  const stack: { struct: StructDecl; added: Iterable<string>; next: number }[] = [];
  const enter = (struct: StructDecl) => {
    const added = visit(struct, inherited);
    for (const [name, entry] of added) inherited.set(name, entry);
    stack.push({ struct, added: added.keys(), next: 0 });
  };
  for (const root of roots) {
    enter(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const below = children.get(top.struct);
      if (below && top.next < below.length) {
        enter(below[top.next++]);
        continue;
      }
      for (const name of top.added) inherited.delete(name);
      stack.pop();
    }
  }
}
