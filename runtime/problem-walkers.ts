/**
 * What the problem walkers the code generator emits (src/codegen/emit-problem-walkers.ts) call: the
 * generated module has one plain function per named type that lists the problems of a value, and
 * these helpers hold the parts every such function shares. They give the same list, word for word and
 * in the same order, as the runtime's explainer (explain.ts `buildExplainer` with named checks), which
 * builds its walkers from the schema at run time.
 */
import { MAX_ISSUES, type ValidationIssue } from './explain.js';
import { BASE64_PATTERN, DATE_PATTERN, TIMESTAMP_PATTERN } from './wire-formats.js';

/** Where a value is, from the validated value down: one shared stack, pushed and popped by the walkers. */
export type ProblemPath = (string | number)[];

/**
 * Lists the problems of `value` (at `path`) into `issues`. A walker of a struct that extends another
 * takes `ownFieldsOnly`: its inherited fields are then left to the walkers of its ancestors.
 */
export type ProblemWalker = (value: unknown, path: ProblemPath, issues: ValidationIssue[], ownFieldsOnly?: boolean) => void;

/**
 * A struct that others extend: its walker and the struct it extends in turn. The generated module
 * declares one per extended struct, so the ancestors of a struct are followed in a loop, not by
 * recursion (an `extends` chain may be thousands of structs long).
 */
export interface ExtendedStruct {
  walk: ProblemWalker;
  parent: ExtendedStruct | undefined;
}

/** Records a problem of the value at `path`. */
export function recordProblem(issues: ValidationIssue[], path: ProblemPath, message: string): void {
  issues.push({ path: copyOf(path), message });
}

/**
 * Records a problem of the value at `key` below `path` (a field, item or entry that is a scalar);
 * without `key`, of the value at `path` (the walker of a constrained scalar takes either).
 */
export function recordProblemAt(issues: ValidationIssue[], path: ProblemPath, key: string | number | undefined, message: string): void {
  issues.push({ path: key === undefined ? copyOf(path) : copyWith(path, key), message });
}

// Most paths are short, and an array literal of known length is much cheaper to make than a copy
// by `slice` (a call), let alone one that `push` then grows.

/** A copy of `path`. */
function copyOf(path: ProblemPath): ProblemPath {
  switch (path.length) {
    case 0:
      return [];
    case 1:
      return [path[0]];
    case 2:
      return [path[0], path[1]];
    case 3:
      return [path[0], path[1], path[2]];
    default:
      return path.slice();
  }
}

/** A copy of `path` with `key` appended. */
function copyWith(path: ProblemPath, key: string | number): ProblemPath {
  switch (path.length) {
    case 0:
      return [key];
    case 1:
      return [path[0], key];
    case 2:
      return [path[0], path[1], key];
    case 3:
      return [path[0], path[1], path[2], key];
    default:
      return [...path, key];
  }
}

/**
 * `text`'s length in code points, as a `u` regular expression and JSON Schema count (a lone
 * surrogate is one, a pair is one): what a generated walker reports for a length constraint.
 * Counted by code unit, which costs no iterator.
 */
export function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Whether `value` can hold fields or map entries: an object that is not an array. */
export function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The problem of a value that is no safe integer: not a whole number, or one past ±(2^53−1).
 * `orNull`: the value is of an `[optional]` field or result, which may also be null.
 */
export function integerProblem(value: unknown, orNull = false): string {
  if (typeof value !== 'number' || !Number.isInteger(value)) return orNull ? 'expected integer or null' : 'expected integer';
  return `value ${value} is outside the safe integer range ±(2^53−1)`;
}

/**
 * After the value of an `[optional]` field or result (not null) was walked from `before` on: when
 * that gave exactly one problem, of the value itself and saying what was expected, null was
 * allowed too.
 */
export function markOrNull(issues: ValidationIssue[], before: number, depth: number): void {
  const first = issues[before];
  if (issues.length === before + 1 && first.path.length === depth && first.message.startsWith('expected ')) first.message += ' or null';
}

/**
 * The start of the walker of a struct that extends `parent`: nothing when `MAX_ISSUES` problems are
 * recorded or the value is no object (recorded). Otherwise the problems of the inherited fields, root
 * ancestor first, and whether the caller is to list those of the struct's own fields (fewer than
 * `MAX_ISSUES` problems yet).
 */
export function inheritedProblems(value: unknown, path: ProblemPath, issues: ValidationIssue[], parent: ExtendedStruct): boolean {
  if (issues.length >= MAX_ISSUES) return false;
  if (!isObjectValue(value)) {
    recordProblem(issues, path, 'expected object');
    return false;
  }
  const walkers: ProblemWalker[] = [];
  for (let at: ExtendedStruct | undefined = parent; at !== undefined; at = at.parent) walkers.push(at.walk);
  for (let i = walkers.length - 1; i >= 0; i--) walkers[i](value, path, issues, true);
  return issues.length < MAX_ISSUES;
}

/**
 * Whether the walk under way met something the explainer may read differently: a field the value
 * inherits (the explainer reads own fields only, a compiled check any), a hole of an array (no item
 * to either, but the check fails on it). Walks do not nest, except through a getter, hence
 * `listProblems` keeps the outer walk's.
 */
let deferred = false;

/** Notes that the walk met such a thing (see above); `undefined`, the value of an inherited field. */
export function deferToExplainer(): undefined {
  deferred = true;
  return undefined;
}

/**
 * The field `key` of the object `value`: its own property (`undefined` if it inherits one, which
 * defers to the explainer). What short walkers use; the others read `value.key` (see the generator).
 */
export function ownField(value: Record<string, unknown>, key: string): unknown {
  const field = value[key];
  return field === undefined || Object.hasOwn(value, key) ? field : deferToExplainer();
}

/**
 * The problems `walk` finds in `value`, when they are exactly what the runtime's explainer lists
 * (with the named checks) for a value the compiled check rejects: some problems were found and the
 * walk did not defer. The walkers read what the check reads, so every problem is one the check
 * fails on (it rejects the value), each part the explainer walks (whose check fails) has problems,
 * so the walkers made sure it reads alike there, and a part it skips (whose check passes) has none.
 * `undefined` otherwise: then the caller asks the check and the explainer.
 */
export function listProblems(walk: ProblemWalker, value: unknown): ValidationIssue[] | undefined {
  const outer = deferred;
  deferred = false;
  const issues: ValidationIssue[] = [];
  walk(value, [], issues);
  // No `finally`: a walk that throws leaves the flag set, and the next walk clears it first.
  const sure = !deferred;
  deferred = outer;
  if (issues.length === 0 || !sure) return undefined;
  return issues.length > MAX_ISSUES ? issues.slice(0, MAX_ISSUES) : issues;
}

const TIMESTAMP = new RegExp(TIMESTAMP_PATTERN);
const DATE = new RegExp(DATE_PATTERN);
const BASE64 = new RegExp(BASE64_PATTERN);

/** Whether `value` is a `timestamp` on the wire (generated walkers test fields with it). */
export function isTimestampText(value: unknown): boolean {
  return typeof value === 'string' && TIMESTAMP.test(value);
}

/** Whether `value` is a `date` on the wire. */
export function isDateText(value: unknown): boolean {
  return typeof value === 'string' && DATE.test(value);
}

/** Whether `value` is `bytes` on the wire. */
export function isBase64Text(value: unknown): boolean {
  return typeof value === 'string' && BASE64.test(value);
}
