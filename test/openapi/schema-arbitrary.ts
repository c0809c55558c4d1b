/**
 * fast-check arbitraries read off an OpenAPI document's schemas, for tests that hold the server to
 * the document: values the schema accepts, and mutations of them that may break it (the caller asks
 * a JSON Schema validator which ones do). It covers the subset of JSON Schema our documents use,
 * in both versions: `$ref`, `allOf`, `anyOf`/`oneOf`, `enum`, `type` (a name or, in 3.1, a list
 * with `null`), 3.0's `nullable`, `properties`/`required`/`additionalProperties`, `items`, integer
 * bounds. Anything else throws, so a new construct in the documents cannot slip past unexercised.
 */
import fc from 'fast-check';

export type Schema = Record<string, any>;

/** Below this depth of `$ref`s, arrays and maps stay empty and optional members stay out, so recursive types end. */
const MAX_DEPTH = 4;
/** Names no IDL identifier can have (a hyphen), so an extra member never collides with a declared one. */
const extraMemberName = fc.integer({ min: 0, max: 99 }).map((n) => `extra-${n}`);
const anyString = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }));
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Resolves local `$ref`s (`#/components/...`) against the document. */
export function resolveRef(document: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node: Schema, segment) => {
      if (!node || !(segment in node)) throw new Error(`unresolved reference: ${ref}`);
      return node[segment];
    }, document);
}

/** Arbitrary values that `schema` (of `document`) accepts. */
export function validValue(document: Schema, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return validValue(document, resolveRef(document, schema.$ref), depth + 1);
  if (schema.allOf) {
    // Each part is an object schema; their values merge (extra members use names no part declares).
    const parts = schema.allOf.map((part: Schema) => validValue(document, part, depth));
    return fc.tuple(...parts).map((values) => Object.assign({}, ...(values as object[])));
  }
  const alternatives: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validValue(document, alternative, depth)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type: string) => validValue(document, { ...schema, type }, depth)));
  }
  const value = valueOfType(document, schema, depth);
  return schema.nullable ? fc.oneof(value, fc.constant(null)) : value;
}

function valueOfType(document: Schema, schema: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return anyString;
    case 'integer':
      return fc.integer({ min: schema.minimum ?? Number.MIN_SAFE_INTEGER, max: schema.maximum ?? Number.MAX_SAFE_INTEGER });
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'array':
      // Built lazily deep down: an arbitrary of the items of a recursive type would recurse forever.
      return depth >= MAX_DEPTH ? fc.constant([]) : fc.array(validValue(document, schema.items, depth), { maxLength: 3 });
    case 'object':
      return objectValue(document, schema, depth);
    default:
      throw new Error(`schema construct not covered: ${JSON.stringify(schema)}`);
  }
}

function objectValue(document: Schema, schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const shallowEnough = depth < MAX_DEPTH;
  const members = Object.fromEntries(
    Object.entries(properties)
      .filter(([name]) => shallowEnough || required.includes(name))
      .map(([name, property]) => [name, validValue(document, property, depth)]),
  );
  const declared = fc.record(members, { requiredKeys: required });
  const { additionalProperties } = schema;
  if (additionalProperties === false || !shallowEnough) return declared;
  const extraValue = typeof additionalProperties === 'object' ? validValue(document, additionalProperties, depth) : anyJson;
  // A map (`additionalProperties` a schema) takes any key; a struct's extras take names no IDL field has.
  const extraKey = typeof additionalProperties === 'object' && !schema.properties ? anyString : extraMemberName;
  const extras = fc.dictionary(extraKey, extraValue, { maxKeys: 3, noNullPrototype: true });
  return fc.tuple(extras, declared).map(([extra, own]) => ({ ...extra, ...(own as object) }));
}

/** A JSON value of a different kind than `value`. */
function otherKind(value: unknown): fc.Arbitrary<unknown> {
  const kinds: fc.Arbitrary<unknown>[] = [
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
    fc.constantFrom(2 ** 53, -(2 ** 53), 1e300),
    anyString,
    fc.constant([]),
    fc.constant({}),
  ];
  return fc.oneof(...kinds).filter((other) => JSON.stringify(other) !== JSON.stringify(value));
}

/** Every path (array of keys) to a member inside a JSON value, the root excluded. */
function memberPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...memberPaths((value as Record<string | number, unknown>)[key], [...prefix, key])]);
}

function withMember(root: unknown, path: (string | number)[], change: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(root);
  const parent = path.slice(0, -1).reduce((node: any, key) => node[key], copy);
  change(parent, path[path.length - 1]);
  return copy;
}

/**
 * Arbitrary mutations of `value` (any JSON value): a member replaced by a value of another kind,
 * removed, or an extra member added to an object; `value` itself replaced by one of another kind. Many break the schema, some do not (a `null` where `null` is allowed):
 * the caller decides with a validator which is which.
 */
export function mutatedValue(value: unknown): fc.Arbitrary<unknown> {
  const paths = memberPaths(value);
  const objectPaths: (string | number)[][] = [[], ...paths].filter((path) => {
    const node = path.reduce((current: any, key) => current[key], value);
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const mutations: fc.Arbitrary<unknown>[] = [otherKind(value)];
  if (objectPaths.length > 0) {
    mutations.push(
      fc.constantFrom(...objectPaths).chain((path) =>
        fc.tuple(extraMemberName, anyJson).map(([name, extra]) =>
          path.length === 0
            ? { ...(value as object), [name]: extra }
            : withMember(value, path, (parent, key) => {
                parent[key] = { ...parent[key], [name]: extra };
              }),
        ),
      ),
    );
  }
  if (paths.length > 0) {
    const path = fc.constantFrom(...paths);
    mutations.push(
      path.chain((at) =>
        otherKind(at.reduce((node: any, key) => node[key], value)).map((replacement) =>
          withMember(value, at, (parent, key) => {
            parent[key] = replacement;
          }),
        ),
      ),
      path.map((at) =>
        withMember(value, at, (parent, key) => {
          if (Array.isArray(parent)) parent.splice(Number(key), 1);
          else delete parent[key];
        }),
      ),
    );
  }
  return fc.oneof(...mutations);
}
