/**
 * IDL types as TypeScript types and as TypeBox schema source. The schema source must evaluate to
 * exactly what `runtime/schema.ts` builds from the IDL JSON: the built-in types' schemas are printed
 * from its table, and a test holds the rest together.
 */
import { BUILT_IN_SCHEMAS, MAP_KEY_PATTERN } from '../../runtime/schema.js';
import type { Attribute, BuiltInTypeName, TypeRef } from '../idl/ast.js';
import { constraintsOf } from '../idl/attributes.js';
import type { Use } from './declarations.js';
import type { TypeScriptNames } from './names.js';
import { stringLiteral } from './source-text.js';

/**
 * The TypeScript type of an IDL type: `int`/`float` -> `number`, `[]T` -> `T[]`, maps ->
 * `Record<string, T>`, a struct or enum -> its TypeScript name.
 */
export function typeScriptType(type: TypeRef, names: TypeScriptNames): string {
  switch (type.kind) {
    case 'builtIn':
      return BUILT_IN_TYPESCRIPT_TYPES[type.name];
    case 'array':
      return `${typeScriptType(type.element, names)}[]`;
    case 'map':
      return `Record<string, ${typeScriptType(type.value, names)}>`;
    case 'named':
      return names.declared(type.name);
  }
}

/** `T`, or `T | null` for an `[optional]` method result. */
export function resultType(type: TypeRef, optional: boolean, names: TypeScriptNames): string {
  return optional ? `${typeScriptType(type, names)} | null` : typeScriptType(type, names);
}

/** The TypeScript type of each built-in IDL type (handlers and callers see `Date` and `Uint8Array`). */
const BUILT_IN_TYPESCRIPT_TYPES: Readonly<Record<BuiltInTypeName, string>> = {
  string: 'string',
  int: 'number',
  float: 'number',
  bool: 'boolean',
  timestamp: 'Date',
  date: 'string',
  bytes: 'Uint8Array',
  json: 'unknown',
};

/** TypeBox source for an IDL type (named types are `Type.Ref`, resolved through the references). */
export function schemaSource(type: TypeRef): string {
  switch (type.kind) {
    case 'builtIn':
      return builtInSchemaSource(type.name);
    case 'array':
      return `Type.Array(${schemaSource(type.element)})`;
    case 'map':
      return `Type.Record(Type.String({ pattern: ${stringLiteral(MAP_KEY_PATTERN)} }), ${schemaSource(type.value)})`;
    case 'named':
      return `Type.Ref(${stringLiteral(type.name)})`;
  }
}

/** `Type.Integer({ minimum: -9007199254740991, ... })`: the runtime's schema of a built-in type, as source. */
function builtInSchemaSource(name: BuiltInTypeName): string {
  const { builder, options } = BUILT_IN_SCHEMAS[name];
  if (options === undefined) return `Type.${builder}()`;
  const members = Object.entries(options).map(
    ([key, value]) => `${key}: ${typeof value === 'string' ? stringLiteral(value) : numberSource(value)}`,
  );
  return `Type.${builder}({ ${members.join(', ')} })`;
}

/**
 * A number as source, the safe-integer bounds as digits: `Number.MAX_SAFE_INTEGER` in a top-level
 * expression names a global variable, and the checker follows the module's control flow back to
 * its start for each such reference (every top-level `const` before it), so thousands of them made
 * `tsc` grow with the square of the IDL's size.
 */
function numberSource(value: number): string {
  return String(value);
}

/** `Type.Union([T, Type.Null()])`: an `[optional]` result, or (wrapped in `Type.Optional`) field. */
export function nullableSchemaSource(type: TypeRef): string {
  return `Type.Union([${schemaSource(type)}, Type.Null()])`;
}

/**
 * A readable name for an IDL type, for naming the validator compiled for it:
 * `[]Product` -> `ProductArray`, `map[string]int` -> `IntMap`, `Product [optional]` -> `ProductOrNull`.
 */
export function typeLabel(type: TypeRef, optional = false): string {
  const label =
    type.kind === 'builtIn'
      ? type.name[0].toUpperCase() + type.name.slice(1)
      : type.kind === 'array'
        ? `${typeLabel(type.element)}Array`
        : type.kind === 'map'
          ? `${typeLabel(type.value)}Map`
          : type.name
              .split('.')
              .map((part) => part[0].toUpperCase() + part.slice(1))
              .join('');
  return optional ? `${label}OrNull` : label;
}

/** What schema source with constraints calls (see `constrainedSource`). */
export const CONSTRAINED_SCHEMA_USE: Use = { from: 'runtime', name: 'constrainedSchema', typeOnly: false };

/**
 * Schema source with the constraints of an attribute list: `constrainedSchema(<source>, {...})`, the
 * runtime's own function (runtime/constraints.ts), so generated and runtime schemas are the same;
 * `source` itself when the list has no constraint (an IDL without attribute lists prints as before).
 */
export function constrainedSource(source: string, attributes: readonly Attribute[] | undefined): string {
  const constraints = constraintsOf(attributes);
  return constraints === undefined ? source : `constrainedSchema(${source}, ${JSON.stringify(constraints)})`;
}

/** The uses of schema source: `constrainedSchema` when it calls it. */
export function constrainedUses(source: string): Use[] {
  return /\bconstrainedSchema\(/.test(source) ? [CONSTRAINED_SCHEMA_USE] : [];
}
