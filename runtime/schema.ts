/**
 * TypeBox schemas from the IDL JSON: the ONE mapping from IDL types to schemas. The runtime
 * compiles these when generated code brings no validators, and the code generator compiles the
 * very same schemas ahead of time (TypeCompiler.Code), so both must come from this file.
 *
 * Mapping (docs/protocol.md "Validation"):
 *
 * | IDL                      | TypeBox                                                              |
 * |--------------------------|----------------------------------------------------------------------|
 * | `string`                 | `Type.String()`                                                      |
 * | `int`                    | `Type.Integer({ minimum: -(2**53 - 1), maximum: 2**53 - 1 })`        |
 * | `float`                  | `Type.Number()` (finite: TypeBox rejects NaN and ±Infinity)          |
 * | `bool`                   | `Type.Boolean()`                                                     |
 * | `timestamp`              | `Type.String({ pattern: TIMESTAMP_PATTERN })` (wire-formats.ts)      |
 * | `date`                   | `Type.String({ pattern: DATE_PATTERN })`                             |
 * | `bytes`                  | `Type.String({ pattern: BASE64_PATTERN })`                           |
 * | `json`                   | `Type.Unknown()` (a required field must still be present)            |
 * | `[]T`                    | `Type.Array(T)`                                                      |
 * | `map[string]T`           | `Type.Record(Type.String({ pattern: MAP_KEY_PATTERN }), T)`          |
 * | struct / enum name       | `Type.Ref('<Name>')` (so recursive structs work)                     |
 * | struct `S`               | `Type.Object({...fields}, { $id: 'S' })`, unknown fields allowed                     |
 * | struct `S extends P`     | `Type.Intersect([Type.Ref('P'), Type.Object({...own fields})], { $id: 'S' })`        |
 * | required field `f T`     | `f: T`                                                               |
 * | `f T [optional]`         | `f: Type.Optional(Type.Union([T, Type.Null()]))`                     |
 * | enum `E { a b }`         | `Type.Union([Type.Literal('a'), Type.Literal('b')], { $id: 'E' })`   |
 * | union `U { a A }`        | `Type.Union([Type.Intersect([Type.Object({ kind: Type.Literal('a') }), Type.Ref('A')])], { $id: 'U', discriminator: 'kind' })` |
 * | method parameters        | one schema per parameter, in IDL order                               |
 * | attribute-list constraints | `constrainedSchema(T, constraints)` (constraints.ts)               |
 * | return `T`               | `T`; `T [optional]` gives `Type.Union([T, Type.Null()])`             |
 *
 * Every named schema (struct or enum) is in `references`; compile any schema with them.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { constrainedSchema } from './constraints.js';
import { BASE64_PATTERN, DATE_PATTERN, TIMESTAMP_PATTERN } from './wire-formats.js';
import type { IdlJson, IdlJsonEnum, IdlJsonInterface, IdlJsonMethod, IdlJsonStruct, IdlJsonType, IdlJsonUnion } from './idl-json.js';

/** The largest integer a JSON number carries exactly: 2^53 − 1. */
export const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

/** The schemas of one method: one per parameter (IDL order) and one for the result. */
export interface MethodSchemas {
  params: TSchema[];
  result: TSchema;
}

export interface IdlSchemas {
  /** One schema per struct, enum and union, `$id` = its name, in IDL order (structs, enums, then unions). */
  references: TSchema[];
  /** Keyed by `"<Interface>.<method>"`. */
  methods: Record<string, MethodSchemas>;
}

/** A built-in IDL type's name in the IDL JSON. */
export type BuiltInTypeName = Extract<IdlJsonType, { builtIn: unknown }>['builtIn'];

/** How a built-in IDL type's schema is made: `Type[builder](options)`. */
export interface BuiltInSchema {
  builder: 'String' | 'Integer' | 'Number' | 'Boolean' | 'Unknown';
  options?: Readonly<Record<string, number | string>>;
}

/**
 * The schema of each built-in IDL type, written once: `typeSchema` builds it and the code generator
 * prints it as TypeBox source (src/codegen/type-mapping.ts), so both give the same schema.
 */
export const BUILT_IN_SCHEMAS: Readonly<Record<BuiltInTypeName, BuiltInSchema>> = {
  string: { builder: 'String' },
  int: { builder: 'Integer', options: { minimum: -MAX_SAFE_INT, maximum: MAX_SAFE_INT } },
  float: { builder: 'Number' },
  bool: { builder: 'Boolean' },
  timestamp: { builder: 'String', options: { pattern: TIMESTAMP_PATTERN } },
  date: { builder: 'String', options: { pattern: DATE_PATTERN } },
  bytes: { builder: 'String', options: { pattern: BASE64_PATTERN } },
  json: { builder: 'Unknown' },
};

/**
 * The pattern every key of a `map[string]T` is checked under. TypeBox's default for a string key,
 * `^(.*)$`, does not match a key holding a line break, and a key no pattern matches is not checked
 * at all: `{"\n": <anything>}` passed every map. `[\s\S]` matches every character.
 */
export const MAP_KEY_PATTERN = '^[\\s\\S]*$';

/** The schema of one IDL type (named types become `Type.Ref(name)`). */
export function typeSchema(type: IdlJsonType): TSchema {
  if ('builtIn' in type) {
    const { builder, options } = BUILT_IN_SCHEMAS[type.builtIn];
    return Type[builder]({ ...options });
  }
  if ('array' in type) return Type.Array(typeSchema(type.array));
  if ('mapValue' in type) return Type.Record(Type.String({ pattern: MAP_KEY_PATTERN }), typeSchema(type.mapValue));
  if ('userDefined' in type) return Type.Ref(type.userDefined);
  throw new Error(`Unknown IDL type ${JSON.stringify(type)}`);
}

/** The schema of a method result: `T`, or `T | null` when the return is `[optional]`. */
export function resultSchema(method: IdlJsonMethod): TSchema {
  const schema = constrainedSchema(typeSchema(method.returnType), method.returnConstraints);
  return method.returnOptional ? Type.Union([schema, Type.Null()]) : schema;
}

/**
 * The schema of a struct: an object of its own fields; for a struct that extends another, the
 * intersection of a reference to the parent and that object. So the child has the parent's fields
 * (checked first), and each schema is as large as its own struct: inherited fields are not copied
 * into every struct of an `extends` chain, which made schemas and compiled checks grow with the
 * square of the chain's length.
 */
export function structSchema(struct: IdlJsonStruct, structsByName: ReadonlyMap<string, IdlJsonStruct>): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const field of struct.fields ?? []) {
    const schema = constrainedSchema(typeSchema(field.type), field.constraints);
    properties[field.name] = field.optional ? Type.Optional(Type.Union([schema, Type.Null()])) : schema;
  }
  if (struct.extends === undefined || !structsByName.has(struct.extends)) return Type.Object(properties, { $id: struct.name });
  return Type.Intersect([Type.Ref(struct.extends), Type.Object(properties)], { $id: struct.name });
}

/**
 * The schema of a discriminated union: one member per variant, in source order, each the object of
 * the discriminator's tag and the variant's struct (which allows the discriminator: a struct allows
 * unknown fields). `discriminator` marks the schema for the explainer, which then names the tags.
 */
export function unionSchema(union: IdlJsonUnion): TSchema {
  const members = (union.variants ?? []).map((variant) =>
    Type.Intersect([Type.Object({ [union.discriminator]: Type.Literal(variant.tag) }), Type.Ref(variant.type)]),
  );
  return Type.Union(members, { $id: union.name, discriminator: union.discriminator });
}

/** Throws when a struct extends itself, directly or through others (its check would never end). */
export function assertExtendsChainsEnd(structsByName: ReadonlyMap<string, IdlJsonStruct>): void {
  // Each struct is walked once: a chain that reaches a struct known to end ends too.
  const ends = new Set<string>();
  for (const struct of structsByName.values()) {
    const chain = new Set<string>();
    for (
      let current: IdlJsonStruct | undefined = struct;
      current && !ends.has(current.name);
      current = current.extends ? structsByName.get(current.extends) : undefined
    ) {
      if (chain.has(current.name)) throw new Error(`Struct ${current.name} extends itself`);
      chain.add(current.name);
    }
    for (const name of chain) ends.add(name);
  }
}

/** The schema of an enum: a union of its values' literals. */
export function enumSchema(e: IdlJsonEnum): TSchema {
  return Type.Union(
    (e.values ?? []).map((v) => Type.Literal(v.name)),
    { $id: e.name },
  );
}

/** Builds every schema of an IDL: struct and enum schemas plus per-method param/result schemas. */
export function idlSchemas(idl: IdlJson): IdlSchemas {
  const structsByName = new Map((idl.structs ?? []).map((s) => [s.name, s] as const));
  assertExtendsChainsEnd(structsByName);
  const references: TSchema[] = [
    ...(idl.structs ?? []).map((struct) => structSchema(struct, structsByName)),
    ...(idl.enums ?? []).map(enumSchema),
    ...(idl.unions ?? []).map(unionSchema),
  ];
  return { references, methods: methodSchemas(idl) };
}

/**
 * The parameter and result schemas of every method, keyed `"<Interface>.<method>"`; `ofInterface`
 * gives one interface's (by default {@link interfaceMethodSchemas}).
 */
export function methodSchemas(
  idl: IdlJson,
  ofInterface: (iface: IdlJsonInterface) => Record<string, MethodSchemas> = interfaceMethodSchemas,
): Record<string, MethodSchemas> {
  const methods: Record<string, MethodSchemas> = {};
  for (const iface of idl.interfaces ?? []) Object.assign(methods, ofInterface(iface));
  return methods;
}

/** The parameter and result schemas of one interface's methods, keyed `"<Interface>.<method>"`. */
export function interfaceMethodSchemas(iface: IdlJsonInterface): Record<string, MethodSchemas> {
  const methods: Record<string, MethodSchemas> = {};
  for (const method of iface.methods ?? []) {
    methods[qualifiedMethodName(iface, method)] = {
      params: (method.parameters ?? []).map((p) => constrainedSchema(typeSchema(p.type), p.constraints)),
      result: resultSchema(method),
    };
  }
  return methods;
}

/** `"<Interface>.<method>"`: the JSON-RPC `method` member and the key of validator tables. */
export function qualifiedMethodName(iface: IdlJsonInterface, method: IdlJsonMethod): string {
  return `${iface.name}.${method.name}`;
}
