/**
 * Mock values of the built-in types under their constraints (docs/idl.md, "Attributes"): numbers
 * within their bounds, strings of their lengths, patterns and formats. Each candidate is checked
 * with the same regular expression the validators use, so what comes out passes them.
 */
import { stringConstraintSource } from '../constraints.js';
import type { IdlJsonConstraints } from '../idl-json.js';
import { MAX_SAFE_INT } from '../schema.js';
import { samplePattern } from './pattern-sample.js';
import { type NumberKind, numberKind, plainWord, realisticString } from './realistic-values.js';
import type { SeededRandom } from './seeded-random.js';

/** Thrown when no value meets a constraint (a pattern the sampler cannot write, contradictory bounds). */
export class MockValueError extends Error {
  override name = 'MockValueError';
}

const DAY_MS = 86_400_000;
/** The longest string made: a larger `minLength` is refused, not allocated. */
export const MAX_MOCK_STRING_LENGTH = 10_000;

/** The usual range of a number of each kind, before the constraints narrow it. */
const KIND_RANGES: Readonly<Record<Exclude<NumberKind, 'unixSeconds' | 'unixMillis'>, [number, number]>> = {
  money: [1, 500],
  count: [1, 20],
  percent: [0, 100],
  rating: [1, 5],
  age: [18, 90],
  plain: [1, 1000],
};

/** A number for a field (or parameter) of this name: an `int` when `integer`, within the constraints. */
export function mockNumber(
  name: string,
  integer: boolean,
  constraints: IdlJsonConstraints | undefined,
  random: SeededRandom,
  baseTime: number,
): number {
  const kind = numberKind(name);
  const [low, high] = allowedRange(constraints, integer);
  const fits = (value: number) => numberFits(value, constraints, integer);
  if (kind === 'unixSeconds' || kind === 'unixMillis') {
    const time = baseTime - random.int(0, 30) * DAY_MS - random.int(0, DAY_MS / 1000) * 1000;
    const value = kind === 'unixSeconds' ? Math.floor(time / 1000) : time;
    if (fits(value)) return value;
  }
  const usual = KIND_RANGES[kind === 'unixSeconds' || kind === 'unixMillis' ? 'plain' : kind];
  const from = Math.max(low, usual[0]);
  const to = Math.min(high, usual[1]);
  const [rangeFrom, rangeTo] = from <= to ? [from, to] : [low, Math.min(high, low + 100)];
  const multipleOf = constraints?.multipleOf;
  for (let attempt = 0; attempt < 20; attempt++) {
    let value: number;
    if (multipleOf !== undefined) {
      const first = Math.ceil(rangeFrom / multipleOf);
      const last = Math.floor(rangeTo / multipleOf);
      value = (last >= first ? random.int(first, Math.min(last, first + 1000)) : first) * multipleOf;
    } else if (integer || kind === 'count' || kind === 'age' || kind === 'rating') {
      value = random.int(Math.ceil(rangeFrom), Math.floor(rangeTo));
    } else {
      value = Math.round((rangeFrom + random.next() * (rangeTo - rangeFrom)) * 100) / 100;
    }
    if (fits(value)) return value;
  }
  // Fallbacks that meet most bounds: each end of the range, its middle, zero.
  for (const value of [rangeFrom, rangeTo, (rangeFrom + rangeTo) / 2, 0, multipleOf ?? 0]) if (fits(value)) return value;
  throw new MockValueError(`no ${integer ? 'int' : 'float'} meets the constraints ${JSON.stringify(constraints ?? {})}`);
}

/** The closed range the bounds leave (exclusive bounds stepped inwards), within an `int`'s range. */
function allowedRange(constraints: IdlJsonConstraints | undefined, integer: boolean): [number, number] {
  const step = integer ? 1 : 0.01;
  let low = integer ? -MAX_SAFE_INT : -Number.MAX_VALUE;
  let high = integer ? MAX_SAFE_INT : Number.MAX_VALUE;
  if (constraints?.min !== undefined) low = Math.max(low, constraints.min);
  if (constraints?.exclusiveMin !== undefined) low = Math.max(low, constraints.exclusiveMin + step);
  if (constraints?.max !== undefined) high = Math.min(high, constraints.max);
  if (constraints?.exclusiveMax !== undefined) high = Math.min(high, constraints.exclusiveMax - step);
  // Amounts and counts are never negative unless the bounds say so.
  if (constraints?.min === undefined && constraints?.exclusiveMin === undefined) low = Math.max(low, Math.min(0, high));
  return [low, high];
}

/** Whether a number meets the constraints as the validators check them. */
function numberFits(value: number, constraints: IdlJsonConstraints | undefined, integer: boolean): boolean {
  if (!Number.isFinite(value) || (integer && (!Number.isInteger(value) || Math.abs(value) > MAX_SAFE_INT))) return false;
  if (constraints === undefined) return true;
  const { min, max, exclusiveMin, exclusiveMax, multipleOf } = constraints;
  if (min !== undefined && value < min) return false;
  if (max !== undefined && value > max) return false;
  if (exclusiveMin !== undefined && !(value > exclusiveMin)) return false;
  if (exclusiveMax !== undefined && !(value < exclusiveMax)) return false;
  return multipleOf === undefined || value % multipleOf === 0;
}

/** A value of each checked format. */
function formatCandidate(format: string | undefined, name: string, random: SeededRandom): string | undefined {
  const hex = (length: number) => Array.from({ length }, () => random.int(0, 15).toString(16)).join('');
  switch (format) {
    case 'email':
      return realisticString(name.toLowerCase().includes('mail') ? name : 'email', random);
    case 'uri':
      return realisticString(/url|uri|link|href/i.test(name) ? name : 'url', random);
    case 'uuid':
      return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    case 'ipv4':
      return `192.0.2.${random.int(1, 254)}`;
    case 'ipv6':
      return `2001:db8::${random.int(1, 0xffff).toString(16)}`;
    case 'hostname':
      return `host${random.int(1, 99)}.example.com`;
    default:
      return undefined;
  }
}

/** A string for a field (or parameter) of this name that meets the constraints. */
export function mockString(name: string, constraints: IdlJsonConstraints | undefined, random: SeededRandom): string {
  const { minLength, maxLength, pattern, format } = constraints ?? {};
  if (minLength !== undefined && minLength > MAX_MOCK_STRING_LENGTH) {
    throw new MockValueError(
      `${name || 'the value'} needs at least ${minLength} characters, more than mocks make (${MAX_MOCK_STRING_LENGTH})`,
    );
  }
  const check = new RegExp(stringConstraintSource({ minLength, maxLength, pattern, format }), 'u');
  const candidates: (string | undefined)[] = [formatCandidate(format, name, random)];
  if (pattern !== undefined) for (let attempt = 0; attempt < 8; attempt++) candidates.push(samplePattern(pattern, random));
  candidates.push(realisticString(name, random), plainWord(random));
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    if (check.test(candidate)) return candidate;
    const fitted = fitLength(candidate, minLength, maxLength);
    if (check.test(fitted)) return fitted;
  }
  const what = pattern !== undefined ? `the pattern /${pattern}/` : 'the constraints';
  throw new MockValueError(`no string of ${name || 'the value'} meets ${what} ${JSON.stringify(constraints ?? {})}: give it an @example`);
}

/** The text cut or padded (with its own letters repeated, else `x`) to the length bounds. */
function fitLength(text: string, minLength: number | undefined, maxLength: number | undefined): string {
  let characters = [...text];
  if (maxLength !== undefined && characters.length > maxLength) characters = characters.slice(0, maxLength);
  const filler = characters.length > 0 ? characters : ['x'];
  while (minLength !== undefined && characters.length < minLength) characters.push(filler[characters.length % filler.length]);
  return characters.join('');
}

/** A `timestamp` in wire form near the base time (in the month before it). */
export function mockTimestamp(random: SeededRandom, baseTime: number): string {
  const time = baseTime - random.int(0, 30) * DAY_MS - random.int(0, DAY_MS / 1000) * 1000;
  return new Date(time).toISOString().replace('.000Z', 'Z');
}

/** A `date` in wire form near the base time. */
export function mockDate(random: SeededRandom, baseTime: number): string {
  return new Date(baseTime - random.int(0, 30) * DAY_MS).toISOString().slice(0, 10);
}

/** `bytes` in wire form: standard base64 of a few bytes. */
export function mockBytes(random: SeededRandom): string {
  const bytes = Array.from({ length: random.int(4, 12) }, () => random.int(0, 255));
  return btoa(String.fromCharCode(...bytes));
}
