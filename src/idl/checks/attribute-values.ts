/**
 * Whether a value of an item's type meets the item's own constraints (docs/idl.md, "Attributes"),
 * for the checker's judgement of a default: `minItems`/`maxItems` bound the array itself, the
 * number and string constraints bound each element of an array or value of a map, at any depth.
 * The value is already known to be of the type (example-values.ts). A checked `format` is judged by
 * the runtime's rule.
 */
import { FORMAT_RULES } from '../../../runtime/constraints.js';
import type { TypeRef } from '../ast.js';
import type { ValueProblem } from './example-values.js';

/** The constraints of one item by name, their values already checked for kind. */
export type ConstraintValues = ReadonlyMap<string, unknown>;

/** The first value of `value` (of type `type`) outside `constraints`, with its JSON path; undefined when none. */
export function valueOutsideConstraints(value: unknown, type: TypeRef, constraints: ConstraintValues): ValueProblem | undefined {
  if (constraints.size === 0) return undefined;
  if (type.kind === 'array' && Array.isArray(value)) {
    const count = itemCountProblem(value.length, constraints);
    if (count) return { path: '$', message: count };
  }
  return elementsOutside(value, type, constraints, '$');
}

function itemCountProblem(length: number, constraints: ConstraintValues): string | undefined {
  const minItems = constraints.get('minItems') as number | undefined;
  const maxItems = constraints.get('maxItems') as number | undefined;
  if (minItems !== undefined && length < minItems) return `${length} items, fewer than minItems=${minItems}`;
  if (maxItems !== undefined && length > maxItems) return `${length} items, more than maxItems=${maxItems}`;
  return undefined;
}

function elementsOutside(value: unknown, type: TypeRef, constraints: ConstraintValues, path: string): ValueProblem | undefined {
  if (type.kind === 'array' && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = elementsOutside(value[i], type.element, constraints, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (type.kind === 'map' && typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const problem = elementsOutside(item, type.value, constraints, `${path}[${JSON.stringify(key)}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  const message =
    typeof value === 'number'
      ? numberProblem(value, constraints)
      : typeof value === 'string'
        ? stringProblem(value, constraints)
        : undefined;
  return message === undefined ? undefined : { path, message };
}

function numberProblem(value: number, constraints: ConstraintValues): string | undefined {
  const bound = (name: string) => constraints.get(name) as number | undefined;
  const min = bound('min');
  if (min !== undefined && value < min) return `${value} is less than min=${min}`;
  const max = bound('max');
  if (max !== undefined && value > max) return `${value} is greater than max=${max}`;
  const exclusiveMin = bound('exclusiveMin');
  if (exclusiveMin !== undefined && value <= exclusiveMin) return `${value} is not greater than exclusiveMin=${exclusiveMin}`;
  const exclusiveMax = bound('exclusiveMax');
  if (exclusiveMax !== undefined && value >= exclusiveMax) return `${value} is not less than exclusiveMax=${exclusiveMax}`;
  const multipleOf = bound('multipleOf');
  // As JSON Schema validators read it: the quotient is a whole number.
  if (multipleOf !== undefined && !Number.isInteger(value / multipleOf)) return `${value} is not a multiple of ${multipleOf}`;
  return undefined;
}

function stringProblem(value: string, constraints: ConstraintValues): string | undefined {
  const minLength = constraints.get('minLength') as number | undefined;
  const maxLength = constraints.get('maxLength') as number | undefined;
  if (minLength !== undefined || maxLength !== undefined) {
    // Counted in Unicode code points, as JSON Schema counts them.
    let length = 0;
    for (const _ of value) length++;
    if (minLength !== undefined && length < minLength) return `${length} characters, fewer than minLength=${minLength}`;
    if (maxLength !== undefined && length > maxLength) return `${length} characters, more than maxLength=${maxLength}`;
  }
  const pattern = constraints.get('pattern') as string | undefined;
  // Unanchored, as JSON Schema reads `pattern`: a search anywhere in the text.
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(value)) return `${JSON.stringify(value)} does not match the pattern`;
  const format = constraints.get('format') as string | undefined;
  const rule = format === undefined ? undefined : FORMAT_RULES[format];
  // The runtime's own rule of a checked format (runtime/constraints.ts), so both judge alike.
  if (rule !== undefined && !new RegExp(`^(?:${rule.source})$`, 'u').test(value)) return `${JSON.stringify(value)} is not a ${format}`;
  return undefined;
}
