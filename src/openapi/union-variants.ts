/**
 * The variant components of a union in the documents we write (docs/openapi.md, "Unions"):
 * `Payment_card` is `allOf` the variant's struct and an object requiring the tag, and the union's
 * `oneOf` and `discriminator.mapping` point to it.
 */

/** On a variant component: the name of the union's component, so reading the document back skips it. */
export const UNION_VARIANT_MARKER = 'x-idl-variant-of';

/** `<union>_<tag>`, or `<union>_<tag>_2`, `_3`, ... when a schema already has that name. */
export function unionVariantName(unionSchemaName: string, tag: string, taken: ReadonlySet<string>): string {
  const wanted = `${unionSchemaName}_${tag}`;
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}_${i}`;
  return name;
}
