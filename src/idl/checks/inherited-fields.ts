/**
 * `duplicate-field`: a field name declared twice in a struct, or redeclaring a field of a parent
 * (at any depth). Runs after the `extends` pass, on its forest of parents (no cycles); one walk of
 * it (../extends-forest.ts), linear however long the chains are.
 */
import type { Field, StructDecl } from '../ast.js';
import { errorAt, relatedLocation } from '../diagnostic.js';
import { walkExtendsForest } from '../extends-forest.js';
import type { CheckContext } from './context.js';

/** A field name seen on the way down an `extends` chain, and the struct that declared it first. */
type InheritedField = { field: Field; owner: StructDecl };

export function checkInheritedFields({ structs, parentOf, report }: CheckContext): void {
  walkExtendsForest<InheritedField>(structs, parentOf, (struct, inherited) => {
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
