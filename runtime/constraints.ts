/**
 * The constraints of attribute lists (`[min=1, maxLength=20, format="email"]`) as TypeBox schema
 * options, and their problems in plain words (docs/runtime.md, "Constraints"). The runtime's schemas
 * and the generated validators both come from `constrainedSchema`, so both check alike.
 *
 * - Numbers: TypeBox's own `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
 * - Arrays: TypeBox's `minItems`, `maxItems`; number and string constraints go to each element
 *   (through arrays and maps, down to the scalar).
 * - Strings: ONE regular expression with the `u` flag (compiled once, where the schema is compiled)
 *   that holds the lengths (in code points, as JSON Schema counts: `.length` counts UTF-16 units),
 *   the pattern (a search, as JSON Schema reads it) and a checked format, each as a lookahead from
 *   the start. The constraints themselves ride along under `IDL_CONSTRAINTS` for the problem messages.
 */
import { Kind, type TSchema, Type } from '@sinclair/typebox';
import type { IdlJsonConstraints } from './idl-json.js';

/**
 * The schema member marking a schema made by `constrainedSchema`, holding a string's constraints
 * (TypeBox ignores it; the explainer reads it). Hand-made schemas with bounds are not marked: their
 * problems are TypeBox's.
 */
export const IDL_CONSTRAINTS = 'x-idl-constraints';

/** A string's constraints as the explainer reads them. */
export interface StringConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;

/**
 * The checked formats, each a whole-string regular expression (read with the `u` flag), and the
 * problem of a string that is not one. The rules (docs/runtime.md) are deliberately plain:
 * - `email`: `local@domain`; the local part dot-separated runs of RFC 5322 `atext`, the domain a hostname (no quoted local parts, no IP literals).
 * - `uri`: an absolute URI (RFC 3986): a scheme, `:`, then only URI characters and `%XX` escapes.
 * - `uuid`: 8-4-4-4-12 hexadecimal digits, any version, either case.
 * - `ipv4`: dotted decimal, four numbers 0-255 without leading zeros.
 * - `ipv6`: the RFC 4291 text forms (`::` once at most, an IPv4 tail), no zone.
 * - `hostname`: RFC 1123 labels of 1-63 letters, digits and inner hyphens, at most 253 characters.
 */
export const FORMAT_RULES: Readonly<Record<string, { source: string; message: string }>> = {
  email: {
    source: `[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@(?=[^@]{1,253}$)${LABEL}(?:\\.${LABEL})*`,
    message: 'expected an email address (local@domain)',
  },
  uri: {
    source: "[A-Za-z][A-Za-z0-9+.\\-]*:(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?#\\[\\]]|%[0-9A-Fa-f]{2})*",
    message: 'expected an absolute URI (RFC 3986)',
  },
  uuid: {
    source: '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}',
    message: 'expected a UUID (8-4-4-4-12 hexadecimal digits)',
  },
  ipv4: { source: IPV4, message: 'expected an IPv4 address (dotted decimal, no leading zeros)' },
  ipv6: {
    source:
      `(?:(?:${H16}:){6}${LS32}|::(?:${H16}:){5}${LS32}|(?:${H16})?::(?:${H16}:){4}${LS32}` +
      `|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}` +
      `|(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}|(?:(?:${H16}:){0,4}${H16})?::${LS32}` +
      `|(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::)`,
    message: 'expected an IPv6 address (RFC 4291 text form, no zone)',
  },
  hostname: { source: `(?=[\\s\\S]{1,253}$)${LABEL}(?:\\.${LABEL})*`, message: 'expected a hostname (RFC 1123)' },
};

/** The regular expression of a string's constraints: lookaheads from the start, one per constraint. */
export function stringConstraintSource(constraints: StringConstraints): string {
  const { minLength, maxLength, pattern, format } = constraints;
  let source = '^';
  if (minLength !== undefined || maxLength !== undefined) source += `(?=[\\s\\S]{${minLength ?? 0},${maxLength ?? ''}}$)`;
  if (pattern !== undefined) source += `(?=[\\s\\S]*?(?:${pattern}))`;
  const rule = format === undefined ? undefined : FORMAT_RULES[format];
  if (rule !== undefined) source += `(?=(?:${rule.source})$)`;
  return source;
}

/** `value`'s length in code points (as JSON Schema counts; `.length` counts UTF-16 units). */
function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Records one problem (the walker's `record` at the value's path). */
export type ReportProblem = (message: string) => void;

/**
 * The function reporting every problem of a string under its constraints, in the order of the
 * attribute list; its regular expressions are compiled once, here. A string the combined expression
 * accepts (what the compiled check tests) has none, and costs that one test.
 */
export function stringConstraintProblems(constraints: StringConstraints): (value: string, report: ReportProblem) => void {
  const { minLength, maxLength, pattern, format } = constraints;
  const combined = new RegExp(stringConstraintSource(constraints), 'u');
  const search = pattern === undefined ? undefined : new RegExp(pattern, 'u');
  const rule = format === undefined ? undefined : FORMAT_RULES[format];
  const whole = rule === undefined ? undefined : new RegExp(`^(?:${rule.source})$`, 'u');
  const hasLength = minLength !== undefined || maxLength !== undefined;
  return (value, report) => {
    if (combined.test(value)) return;
    if (hasLength) {
      const length = codePointLength(value);
      if (minLength !== undefined && length < minLength) report(`too short: at least ${minLength} characters, got ${length}`);
      if (maxLength !== undefined && length > maxLength) report(`too long: at most ${maxLength} characters, got ${length}`);
    }
    if (search !== undefined && !search.test(value)) report(`expected a string matching /${pattern}/u`);
    if (whole !== undefined && !whole.test(value)) report(rule!.message);
  };
}

/**
 * The function reporting every bound of a schema's number constraints a number breaks (the type
 * itself is checked before); the bounds are read from the schema once, here.
 */
export function numberConstraintProblems(schema: TSchema): (value: number, report: ReportProblem) => void {
  const bound = (key: string, unless?: number) =>
    typeof schema[key] === 'number' && schema[key] !== unless ? (schema[key] as number) : undefined;
  const minimum = bound('minimum', -Number.MAX_SAFE_INTEGER);
  const maximum = bound('maximum', Number.MAX_SAFE_INTEGER);
  const exclusiveMinimum = bound('exclusiveMinimum');
  const exclusiveMaximum = bound('exclusiveMaximum');
  const multipleOf = bound('multipleOf');
  return (value, report) => {
    if (minimum !== undefined && value < minimum) report(`expected a value >= ${minimum}`);
    if (maximum !== undefined && value > maximum) report(`expected a value <= ${maximum}`);
    if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) report(`expected a value > ${exclusiveMinimum}`);
    if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) report(`expected a value < ${exclusiveMaximum}`);
    if (multipleOf !== undefined && value % multipleOf !== 0) report(`expected a multiple of ${multipleOf}`);
  };
}

/** The problem of an array's length under its schema's bounds, if any. */
export function itemCountProblem(length: number, schema: TSchema): string | undefined {
  if (typeof schema.minItems === 'number' && length < schema.minItems) return `too few items: at least ${schema.minItems}, got ${length}`;
  if (typeof schema.maxItems === 'number' && length > schema.maxItems) return `too many items: at most ${schema.maxItems}, got ${length}`;
  return undefined;
}

/** Whether a schema carries constraints of an attribute list (its problems need more than its kind). */
export function hasConstraints(schema: TSchema): boolean {
  return schema[IDL_CONSTRAINTS] !== undefined;
}

/** The options of the number constraints present. */
function numberOptions(c: IdlJsonConstraints): Record<string, number> {
  const options: Record<string, number> = {};
  if (c.min !== undefined) options.minimum = c.min;
  if (c.max !== undefined) options.maximum = c.max;
  if (c.exclusiveMin !== undefined) options.exclusiveMinimum = c.exclusiveMin;
  if (c.exclusiveMax !== undefined) options.exclusiveMaximum = c.exclusiveMax;
  if (c.multipleOf !== undefined) options.multipleOf = c.multipleOf;
  return options;
}

/**
 * `schema` (an IDL type's, from runtime/schema.ts) with the constraints of its attribute list; the
 * schema itself when none of them is checked (an unchecked format changes nothing).
 */
export function constrainedSchema(schema: TSchema, constraints: IdlJsonConstraints | undefined): TSchema {
  if (constraints === undefined) return schema;
  switch (schema[Kind]) {
    case 'Integer': {
      const options = numberOptions(constraints);
      if (Object.keys(options).length === 0) return schema;
      // The safe-integer bounds stay unless the attribute list is narrower.
      const minimum = Math.max(options.minimum ?? -Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER);
      const maximum = Math.min(options.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      return Type.Integer({ ...options, minimum, maximum, [IDL_CONSTRAINTS]: {} });
    }
    case 'Number': {
      const options = numberOptions(constraints);
      return Object.keys(options).length === 0 ? schema : Type.Number({ ...options, [IDL_CONSTRAINTS]: {} });
    }
    case 'String': {
      if (schema.pattern !== undefined) return schema; // timestamp, date, bytes: no string constraints
      const { minLength, maxLength, pattern } = constraints;
      const format = constraints.format !== undefined && Object.hasOwn(FORMAT_RULES, constraints.format) ? constraints.format : undefined;
      if (minLength === undefined && maxLength === undefined && pattern === undefined && format === undefined) return schema;
      const own: StringConstraints = {};
      if (minLength !== undefined) own.minLength = minLength;
      if (maxLength !== undefined) own.maxLength = maxLength;
      if (pattern !== undefined) own.pattern = pattern;
      if (format !== undefined) own.format = format;
      return Type.RegExp(new RegExp(stringConstraintSource(own), 'u'), { [IDL_CONSTRAINTS]: own });
    }
    case 'Array': {
      const { minItems, maxItems, ...element } = constraints;
      const options: Record<string, number> = {};
      if (minItems !== undefined) options.minItems = minItems;
      if (maxItems !== undefined) options.maxItems = maxItems;
      const items = constrainedSchema(schema.items as TSchema, element);
      if (items === schema.items && Object.keys(options).length === 0) return schema;
      // Marked only when the array itself is bounded (element constraints are the items' own).
      return Type.Array(items, Object.keys(options).length === 0 ? {} : { ...options, [IDL_CONSTRAINTS]: {} });
    }
    case 'Record': {
      const [keyPattern, value] = Object.entries(schema.patternProperties as Record<string, TSchema>)[0];
      const { minItems: _min, maxItems: _max, ...element } = constraints;
      const constrained = constrainedSchema(value, element);
      return constrained === value ? schema : Type.Record(Type.String({ pattern: keyPattern }), constrained);
    }
    default:
      return schema;
  }
}
