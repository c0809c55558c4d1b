/**
 * When a `oneOf`/`anyOf` is a union (docs/openapi.md, "Unions", OpenAPI to IDL): every member that is
 * not null names an object schema (through `$ref`s, and through an `allOf` of one `$ref` and an
 * object that only declares the tag, the shape our own documents and many others use), and either
 * a `discriminator` names the tag property, or one property holds a distinct constant (`const`, or
 * an `enum` of one value) in every member. Tags come from `discriminator.mapping`, else from that
 * constant, else (with a `discriminator`) from the name of the schema the member references.
 */
import { isValidIdentifier } from './names.js';
import { child, type Location, locationKey } from './source-documents.js';
import { ConversionError } from './warnings.js';

type Schema = Record<string, unknown>;

/** One variant: its tag and the object schema that becomes its struct. */
export interface UnionVariantShape {
  tag: string;
  location: Location;
  schema: unknown;
  /** The schema that adds the tag to the struct (a variant component), whose comment is the variant's. */
  tagSchema?: Schema;
}

export interface UnionShape {
  keyword: 'oneOf' | 'anyOf';
  /** The tag property: the union's discriminator. */
  propertyName: string;
  variants: UnionVariantShape[];
  /** A null member was among the alternatives. */
  nullable: boolean;
}

/** What the shape test needs of the converter. */
export interface UnionShapeHelpers {
  resolve(ref: string, from: Location): { location: Location; value: unknown };
  /** Whether the schema at a location becomes a struct. */
  isStruct(location: Location, schema: unknown): boolean;
}

/** How many `$ref`/`allOf` hops a member may take to its object schema. */
const MAX_HOPS = 32;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(schema: unknown): boolean {
  return (
    isObject(schema) && (schema.type === 'null' || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null))
  );
}

/** The constant a property schema allows: `const`, or the one value of `enum`. */
function constantOf(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return schema.const;
  return Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined;
}

/** An `allOf` member that only requires a tag: `{type: object, properties: {<one>: <constant>}, required}`. */
function isTagOnly(member: unknown): member is Schema & { properties: Schema } {
  if (!isObject(member) || !isObject(member.properties)) return false;
  const properties = Object.values(member.properties);
  if (properties.length !== 1 || constantOf(properties[0]) === undefined) return false;
  return Object.keys(member).every((key) => ['type', 'properties', 'required', 'description'].includes(key));
}

/** A member followed to its object schema, with what it says about constants and the schemas it passed. */
interface Followed {
  location: Location;
  schema: unknown;
  /** Property name -> constant, from tag-only `allOf` members and the schema's own properties. */
  constants: Map<string, unknown>;
  /** The properties it requires (tag-only members, the schema's own `required` and its `allOf` parts'). */
  required: Set<string>;
  /** Location keys of every schema on the way (for `mapping`). */
  passed: Set<string>;
  /** The `allOf` of the struct and the tag it passed through, if any. */
  tagSchema?: Schema;
  /** The last token of the first `$ref` followed (the implicit tag with a `discriminator`). */
  refName?: string;
}

function follow(location: Location, member: unknown, helpers: UnionShapeHelpers): Followed | undefined {
  const followed: Followed = {
    location,
    schema: member,
    constants: new Map(),
    required: new Set(),
    passed: new Set([locationKey(location)]),
  };
  for (let hops = 0; hops < MAX_HOPS && isObject(followed.schema); hops++) {
    const schema: Schema = followed.schema;
    if (typeof schema.$ref === 'string') {
      const target = helpers.resolve(schema.$ref, followed.location);
      followed.refName ??= target.location.pointer.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~');
      followed.location = target.location;
      followed.schema = target.value;
      followed.passed.add(locationKey(target.location));
      continue;
    }
    const allOf = schema.allOf;
    if (Array.isArray(allOf) && allOf.length === 2 && !isObject(schema.properties)) {
      const tagIndex = allOf.findIndex(isTagOnly);
      const other = allOf[1 - tagIndex];
      if (tagIndex !== -1 && isObject(other) && typeof other.$ref === 'string') {
        for (const [name, property] of Object.entries((allOf[tagIndex] as { properties: Schema }).properties)) {
          followed.constants.set(name, constantOf(property));
        }
        addRequired(followed.required, allOf[tagIndex]);
        followed.tagSchema ??= schema;
        followed.location = child(followed.location, 'allOf', 1 - tagIndex);
        followed.schema = other;
        continue;
      }
    }
    break;
  }
  if (!helpers.isStruct(followed.location, followed.schema)) return undefined;
  const schema = followed.schema as Schema;
  const own = [isObject(schema.properties) ? schema.properties : {}];
  addRequired(followed.required, schema);
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      if (isObject(part) && isObject(part.properties)) own.push(part.properties);
      addRequired(followed.required, part);
    }
  }
  for (const properties of own) {
    for (const [name, property] of Object.entries(properties)) {
      const constant = constantOf(property);
      if (constant !== undefined && !followed.constants.has(name)) followed.constants.set(name, constant);
    }
  }
  return followed;
}

function addRequired(required: Set<string>, schema: unknown): void {
  if (!isObject(schema) || !Array.isArray(schema.required)) return;
  for (const name of schema.required) if (typeof name === 'string') required.add(name);
}

/**
 * The property every member requires and holds a distinct string constant in, the first such in
 * the first member's order. An optional one tells nothing apart: a value may leave it out.
 */
function constantProperty(members: readonly Followed[]): string | undefined {
  return [...members[0].constants.keys()].find((name) => {
    if (!members.every((m) => m.required.has(name))) return false;
    const values = members.map((m) => m.constants.get(name));
    return values.every((v) => typeof v === 'string') && new Set(values).size === values.length;
  });
}

/** Location key of each `discriminator.mapping` target -> its tag. */
function mappingTags(schema: Schema, location: Location, helpers: UnionShapeHelpers): Map<string, string> {
  const tags = new Map<string, string>();
  const discriminator = schema.discriminator;
  const mapping = isObject(discriminator) && isObject(discriminator.mapping) ? discriminator.mapping : {};
  for (const [tag, target] of Object.entries(mapping)) {
    if (typeof target !== 'string') continue;
    // A bare schema name is a component's name (OpenAPI's Discriminator Object).
    const ref = target.includes('/') || target.includes('#') ? target : `#/components/schemas/${target}`;
    try {
      tags.set(locationKey(helpers.resolve(ref, location).location), tag);
    } catch (error) {
      // An unresolvable mapping entry selects nothing.
      if (!(error instanceof ConversionError)) throw error;
    }
  }
  return tags;
}

/** The union `schema` (a `oneOf` or `anyOf` at `location`) describes, or undefined when it is none. */
export function unionShape(location: Location, schema: Schema, helpers: UnionShapeHelpers): UnionShape | undefined {
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
  const alternatives = schema[keyword];
  if (!Array.isArray(alternatives)) return undefined;
  const discriminator =
    isObject(schema.discriminator) && typeof schema.discriminator.propertyName === 'string' ? schema.discriminator : undefined;
  const members: Followed[] = [];
  let nullable = false;
  try {
    for (const [i, member] of alternatives.entries()) {
      if (isNullSchema(member)) {
        nullable = true;
        continue;
      }
      const followed = follow(child(location, keyword, i), member, helpers);
      if (followed === undefined) return undefined;
      members.push(followed);
    }
  } catch (error) {
    // An unresolvable reference: the ordinary conversion reports it.
    if (error instanceof ConversionError) return undefined;
    throw error;
  }
  if (members.length === 0 || (discriminator === undefined && members.length < 2)) return undefined;
  const propertyName = discriminator !== undefined ? (discriminator.propertyName as string) : constantProperty(members);
  if (propertyName === undefined || !isValidIdentifier(propertyName)) return undefined;
  const mapped = discriminator !== undefined ? mappingTags(schema, location, helpers) : new Map<string, string>();
  const variants: UnionVariantShape[] = [];
  for (const member of members) {
    const fromMapping = [...member.passed].map((key) => mapped.get(key)).find((tag) => tag !== undefined);
    const constant = member.constants.get(propertyName);
    const tag = fromMapping ?? (typeof constant === 'string' ? constant : discriminator !== undefined ? member.refName : undefined);
    if (tag === undefined || !isValidIdentifier(tag)) return undefined;
    variants.push({ tag, location: member.location, schema: member.schema, tagSchema: member.tagSchema });
  }
  if (new Set(variants.map((v) => v.tag)).size !== variants.length) return undefined;
  return { keyword, propertyName, variants, nullable };
}
