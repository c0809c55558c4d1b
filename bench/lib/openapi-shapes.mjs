/**
 * OpenAPI documents of the shapes that once exhausted the converter's stack, at any size n:
 * schemas nested n deep, a chain of n `$ref`s, an `allOf` inheritance chain n long, an enum of n
 * values. Built with loops (no recursion), as objects, so n can be 100,000.
 */

/** An OpenAPI 3.0 document with these component schemas. */
function documentOf(schemas) {
  return { openapi: '3.0.3', info: { title: 'Shapes', version: '1' }, paths: {}, components: { schemas } };
}

export const openApiShapes = {
  /** `Root.a.a.a...`: an object property nested n deep (n hoisted structs). */
  'nested schemas': (n) => {
    let schema = { type: 'string' };
    for (let i = 0; i < n; i++) schema = { type: 'object', properties: { a: schema } };
    return documentOf({ Root: schema });
  },
  /** `R0 -> R1 -> ... -> Rn`, a struct at the end, used by a field. */
  '$ref chain': (n) => {
    const schemas = { User: { type: 'object', properties: { home: { $ref: '#/components/schemas/R0' } } } };
    for (let i = 0; i < n; i++) schemas[`R${i}`] = { $ref: `#/components/schemas/R${i + 1}` };
    schemas[`R${n}`] = { type: 'object', properties: { street: { type: 'string' } } };
    return documentOf(schemas);
  },
  /** `S0 extends S1 extends ... Sn`, each adding one property. */
  'allOf chain': (n) => {
    const schemas = {};
    for (let i = 0; i < n; i++) {
      schemas[`S${i}`] = {
        allOf: [{ $ref: `#/components/schemas/S${i + 1}` }, { type: 'object', properties: { [`p${i}`]: { type: 'string' } } }],
      };
    }
    schemas[`S${n}`] = { type: 'object', properties: { last: { type: 'string' } } };
    return documentOf(schemas);
  },
  /** One string enum of n values. */
  'enum values': (n) => documentOf({ Big: { type: 'string', enum: Array.from({ length: n }, (_, i) => `value_${i}`) } }),
};
