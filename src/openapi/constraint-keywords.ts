/**
 * IDL attribute lists as OpenAPI schema keywords (docs/openapi.md, "Constraints and defaults"):
 * `min` -> `minimum`, `exclusiveMin` -> `exclusiveMinimum` (a number in 3.1, `minimum` plus `true`
 * in 3.0), `minLength`, `pattern`, `format`, `minItems`, ... On an array or map the number and string
 * constraints go on the innermost `items`/`additionalProperties`, where JSON Schema reads them for
 * each element; `minItems`/`maxItems` stay on the array.
 */
import type { IdlJsonConstraints } from '../../runtime/idl-json.js';

type Schema = Record<string, unknown>;

/** The IDL name of each constraint and its OpenAPI keyword, where the two differ only in name. */
const SAME_MEANING: readonly [keyof IdlJsonConstraints, string][] = [
  ['min', 'minimum'],
  ['max', 'maximum'],
  ['multipleOf', 'multipleOf'],
  ['minLength', 'minLength'],
  ['maxLength', 'maxLength'],
  ['pattern', 'pattern'],
  ['format', 'format'],
];

/** `schema` (a plain schema of an IDL type, not yet nullable) with the constraints in their keywords. */
export function withConstraints(schema: Schema, constraints: IdlJsonConstraints | undefined, version: '3.0' | '3.1'): Schema {
  if (!constraints) return schema;
  const { minItems, maxItems, ...perElement } = constraints;
  const result = applyToElements(schema, (element) => withElementConstraints(element, perElement, version));
  if (minItems !== undefined) result.minItems = minItems;
  if (maxItems !== undefined) result.maxItems = maxItems;
  return result;
}

/** Applies `change` to the innermost element schema of arrays and maps (to `schema` itself otherwise). */
function applyToElements(schema: Schema, change: (element: Schema) => Schema): Schema {
  if (schema.type === 'array' && schema.items) return { ...schema, items: applyToElements(schema.items as Schema, change) };
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return { ...schema, additionalProperties: applyToElements(schema.additionalProperties as Schema, change) };
  }
  return change(schema);
}

function withElementConstraints(schema: Schema, constraints: IdlJsonConstraints, version: '3.0' | '3.1'): Schema {
  const result: Schema = { ...schema };
  // An IDL bound (and format) replaces the int's own safe-integer range (and `int64`) when it is set.
  for (const [name, keyword] of SAME_MEANING) if (constraints[name] !== undefined) result[keyword] = constraints[name];
  exclusive(result, 'exclusiveMinimum', 'minimum', constraints.exclusiveMin, version);
  exclusive(result, 'exclusiveMaximum', 'maximum', constraints.exclusiveMax, version);
  return result;
}

/** 3.1: `exclusiveMinimum: n`; 3.0: `minimum: n, exclusiveMinimum: true` (its boolean form). */
function exclusive(schema: Schema, keyword: string, inclusive: string, bound: number | undefined, version: '3.0' | '3.1'): void {
  if (bound === undefined) return;
  if (version === '3.1') {
    schema[keyword] = bound;
    return;
  }
  schema[inclusive] = bound;
  schema[keyword] = true;
}
