/**
 * What a JSON Schema says about values, for comparing a schema with the one written back from its
 * IDL: references followed (a recursive one named), `allOf` members merged, null alternatives read
 * as `nullable`, annotations left out. The writer's own additions (constraints it writes on every
 * `int`, a `format` of the IDL's types) are not differences: every constraint of the original must
 * be in the copy, not the other way round.
 */

export interface Difference {
  /** Where in the original document. */
  pointer: string;
  what: string;
}

interface Shape {
  /** Where the schema is in its document (after references). */
  at: string;
  any?: true;
  ref?: string;
  nullable?: boolean;
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
  values?: Shape;
  constraints?: Record<string, unknown>;
}

const CONSTRAINTS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'format',
];
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deref(document: any, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: any, token: string) => node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** The shape of `schema` in `document`. */
export function shapeOf(document: any, schema: unknown, at: string, seen: ReadonlySet<string> = new Set()): Shape {
  while (isObject(schema) && typeof schema.$ref === 'string') {
    const name = schema.$ref as string;
    if (seen.has(name)) return { at, ref: name.slice(name.lastIndexOf('/') + 1) };
    seen = new Set(seen).add(name);
    schema = deref(document, name);
    at = name.slice(1);
  }
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k) || k.startsWith('x-'))))
    return { at, any: true };
  if (!isObject(schema)) return { at, any: true };
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = schema[keyword];
    if (!Array.isArray(members)) continue;
    const kept = members.map((m, i) => ({ m, i })).filter(({ m }) => !(isObject(m) && m.type === 'null'));
    if (kept.length === 1) {
      const inner = shapeOf(document, kept[0].m, `${at}/${keyword}/${kept[0].i}`, seen);
      return { ...inner, at, nullable: kept.length < members.length || inner.nullable };
    }
  }
  let shape: Shape = { at };
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((member: unknown, i: number) => {
      shape = merge(shape, shapeOf(document, member, `${at}/allOf/${i}`, seen));
    });
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type !== undefined ? [schema.type] : []) as string[];
  if (types.includes('null') || schema.nullable === true) shape.nullable = true;
  const type = types.find((t) => t !== 'null') ?? (schema.properties !== undefined ? 'object' : undefined);
  if (type !== undefined) shape.type = type;
  if (Array.isArray(schema.enum)) shape.enum = schema.enum.filter((v: unknown) => v !== null);
  if (isObject(schema.properties)) {
    shape.type = 'object';
    shape.properties = { ...shape.properties };
    for (const [key, value] of Object.entries(schema.properties))
      shape.properties[key] = shapeOf(document, value, `${at}/properties/${key}`, seen);
  }
  if (Array.isArray(schema.required)) shape.required = [...new Set([...(shape.required ?? []), ...schema.required])].sort();
  if (schema.items !== undefined) shape.items = shapeOf(document, schema.items, `${at}/items`, seen);
  if (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
    shape.values = shapeOf(document, schema.additionalProperties, `${at}/additionalProperties`, seen);
  }
  for (const key of CONSTRAINTS) if (schema[key] !== undefined) (shape.constraints ??= {})[key] = schema[key];
  return shape;
}

function merge(a: Shape, b: Shape): Shape {
  return {
    ...a,
    ...b,
    at: a.at,
    properties: a.properties || b.properties ? { ...a.properties, ...b.properties } : undefined,
    required: a.required || b.required ? [...new Set([...(a.required ?? []), ...(b.required ?? [])])].sort() : undefined,
    constraints: a.constraints || b.constraints ? { ...a.constraints, ...b.constraints } : undefined,
  };
}

/**
 * The differences between the original schema and the copy: `optional` (a param or property that
 * may be left out, which the IDL makes null-or-absent) ignores whether null is allowed.
 */
export function schemaDifferences(
  original: any,
  schema: unknown,
  back: any,
  copy: unknown,
  pointer: string,
  { optional = false }: { optional?: boolean } = {},
): Difference[] {
  const found: Difference[] = [];
  compare(shapeOf(original, schema, pointer), shapeOf(back, copy, ''), optional, found, 0);
  return found;
}

function compare(a: Shape, b: Shape, optional: boolean, found: Difference[], depth: number): void {
  if (depth > 50) return;
  const say = (what: string) => found.push({ pointer: a.at, what });
  if (a.any || b.any) {
    if (!(a.any && b.any)) say(`any value vs ${JSON.stringify(a.any ? b : a).slice(0, 80)}`);
    return;
  }
  if (a.ref !== undefined || b.ref !== undefined) return; // recursion: compared where it started
  if (!optional && (a.nullable === true) !== (b.nullable === true)) say(`nullable ${a.nullable === true} -> ${b.nullable === true}`);
  if (a.type !== b.type && !(a.type === undefined && b.type === 'object' && a.properties)) say(`type ${a.type} -> ${b.type}`);
  if (JSON.stringify(a.enum?.slice().sort()) !== JSON.stringify(b.enum?.slice().sort()))
    say(`enum ${JSON.stringify(a.enum)} -> ${JSON.stringify(b.enum)}`);
  for (const [key, value] of Object.entries(a.constraints ?? {})) {
    if (JSON.stringify(b.constraints?.[key]) !== JSON.stringify(value))
      say(`${key} ${JSON.stringify(value)} -> ${JSON.stringify(b.constraints?.[key])}`);
  }
  if (JSON.stringify(a.required ?? []) !== JSON.stringify(b.required ?? [])) say(`required ${a.required} -> ${b.required}`);
  const keys = new Set([...Object.keys(a.properties ?? {}), ...Object.keys(b.properties ?? {})]);
  for (const key of keys) {
    if (!a.properties?.[key] || !b.properties?.[key]) {
      say(`property ${key} only on one side`);
      continue;
    }
    compare(a.properties[key], b.properties[key], !(a.required ?? []).includes(key), found, depth + 1);
  }
  if (a.items || b.items) {
    if (!a.items || !b.items) say('items on one side only');
    else compare(a.items, b.items, false, found, depth + 1);
  }
  if (a.values || b.values) {
    if (!a.values || !b.values) say('map values on one side only');
    else compare(a.values, b.values, false, found, depth + 1);
  }
}
