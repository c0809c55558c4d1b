/**
 * The constraints of an attribute list (docs/idl.md, "Attributes") as checks on one value: what the
 * server's validators apply to requests, and what the compiler applies to a `default`. Lengths count
 * Unicode code points and `pattern` is a search with the `u` flag, as JSON Schema reads them, so
 * that OpenAPI tools and the server agree.
 */
import type { IdlJsonConstraints } from './idl-json.js';

/** The `format` names that are checked; any other name is documentation only. */
export const FORMAT_CHECKS: Readonly<Record<string, (text: string) => boolean>> = {
  // The rules of ajv-formats' "fast" mode, the formats most OpenAPI tools apply.
  email: (text) =>
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(
      text,
    ),
  uri: (text) => /^[a-z][a-z0-9+.-]*:[^\s"<>\\^`{|}]*$/i.test(text),
  uuid: (text) => /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(text),
  ipv4: isIpv4,
  ipv6: isIpv6,
  hostname: (text) => /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i.test(text),
};

function isIpv4(text: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(text);
}

/** RFC 4291 text: eight groups, `::` once for a run of zero groups, an IPv4 tail in place of two. */
function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const groups = halves.flatMap(groupsOf);
  let count = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.')) {
    if (!isIpv4(last)) return false;
    groups.pop();
    count += 1;
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** The length of a text in code points, as JSON Schema's `minLength` and `maxLength` count it. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** Whether `value` is a multiple of `divisor`, without the float error of `value % divisor`. */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  return Number.isFinite(quotient) && Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

/**
 * The first constraint `value` breaks, as a message ("must be at least 1"), or undefined. A value of
 * a kind a constraint does not bound (a number for `maxLength`) passes it: the type's own check
 * reports the kind.
 */
export function constraintProblem(value: unknown, constraints: IdlJsonConstraints, patterns = compiledPatterns): string | undefined {
  if (typeof value === 'number') return numberProblem(value, constraints);
  if (typeof value === 'string') return stringProblem(value, constraints, patterns);
  if (Array.isArray(value)) {
    if (constraints.minItems !== undefined && value.length < constraints.minItems)
      return `must hold at least ${constraints.minItems} items`;
    if (constraints.maxItems !== undefined && value.length > constraints.maxItems) return `must hold at most ${constraints.maxItems} items`;
  }
  return undefined;
}

function numberProblem(value: number, c: IdlJsonConstraints): string | undefined {
  if (c.min !== undefined && value < c.min) return `must be at least ${c.min}`;
  if (c.max !== undefined && value > c.max) return `must be at most ${c.max}`;
  if (c.exclusiveMin !== undefined && value <= c.exclusiveMin) return `must be more than ${c.exclusiveMin}`;
  if (c.exclusiveMax !== undefined && value >= c.exclusiveMax) return `must be less than ${c.exclusiveMax}`;
  if (c.multipleOf !== undefined && !isMultipleOf(value, c.multipleOf)) return `must be a multiple of ${c.multipleOf}`;
  return undefined;
}

function stringProblem(value: string, c: IdlJsonConstraints, patterns: (pattern: string) => RegExp): string | undefined {
  if (c.minLength !== undefined || c.maxLength !== undefined) {
    const length = codePointLength(value);
    if (c.minLength !== undefined && length < c.minLength) return `must be at least ${c.minLength} characters long`;
    if (c.maxLength !== undefined && length > c.maxLength) return `must be at most ${c.maxLength} characters long`;
  }
  if (c.pattern !== undefined && !patterns(c.pattern).test(value)) return `must match the pattern ${c.pattern}`;
  const check = c.format === undefined ? undefined : FORMAT_CHECKS[c.format];
  if (check && !check(value)) return `must be ${c.format === 'email' || c.format === 'uri' ? 'an' : 'a'} ${c.format}`;
  return undefined;
}

/** Each pattern compiled once (patterns come from the IDL, a bounded set). */
const patternCache = new Map<string, RegExp>();
function compiledPatterns(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern, 'u');
    patternCache.set(pattern, compiled);
  }
  return compiled;
}
