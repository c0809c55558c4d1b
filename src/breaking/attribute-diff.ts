/**
 * How an attribute list changed between two contracts (docs/breaking.md, "Constraints, defaults and
 * optional parameters"): which constraints now accept fewer values (tightened), more (loosened), or
 * other ones (changed), and what happened to the default. Where that breaks depends on where the
 * values travel: a tighter bound on what a request carries refuses what old clients send, a looser
 * one on what a response carries lets through what old clients do not expect.
 */
import type { IdlJsonConstraints } from '../../runtime/idl-json.js';

export interface ConstraintChanges {
  tightened: string[];
  loosened: string[];
  /** Neither tighter nor looser (another pattern, another format, an unrelated step). */
  changed: string[];
}

type Name = keyof IdlJsonConstraints;

/** Bounds below which values are refused: raising one tightens. */
const LOWER_BOUNDS: readonly Name[] = ['min', 'exclusiveMin', 'minLength', 'minItems'];
/** Bounds above which values are refused: lowering one tightens. */
const UPPER_BOUNDS: readonly Name[] = ['max', 'exclusiveMax', 'maxLength', 'maxItems'];
/** Constraints compared by value only. */
const EXACT: readonly Name[] = ['pattern', 'format'];

/** What changed from `before` to `after`, each constraint named as `name` or `name=old->new`. */
export function constraintChanges(before: IdlJsonConstraints | undefined, after: IdlJsonConstraints | undefined): ConstraintChanges {
  const changes: ConstraintChanges = { tightened: [], loosened: [], changed: [] };
  const old = before ?? {};
  const now = after ?? {};
  const describe = (name: Name) => `${name} ${text(old[name])} -> ${text(now[name])}`;
  const compare = (name: Name, tighter: (a: number, b: number) => boolean) => {
    const a = old[name] as number | undefined;
    const b = now[name] as number | undefined;
    if (a === b) return;
    if (a === undefined) changes.tightened.push(describe(name));
    else if (b === undefined) changes.loosened.push(describe(name));
    else (tighter(a, b) ? changes.tightened : changes.loosened).push(describe(name));
  };
  for (const name of LOWER_BOUNDS) compare(name, (a, b) => b > a);
  for (const name of UPPER_BOUNDS) compare(name, (a, b) => b < a);
  compareStep(old.multipleOf, now.multipleOf, describe('multipleOf'), changes);
  for (const name of EXACT) {
    const a = old[name];
    const b = now[name];
    if (a === b) continue;
    if (a === undefined) changes.tightened.push(describe(name));
    else if (b === undefined) changes.loosened.push(describe(name));
    else changes.changed.push(describe(name));
  }
  return changes;
}

/** A step that is a multiple of the old one accepts fewer values; a divisor of it, more. */
function compareStep(a: number | undefined, b: number | undefined, described: string, changes: ConstraintChanges): void {
  if (a === b) return;
  if (a === undefined) changes.tightened.push(described);
  else if (b === undefined) changes.loosened.push(described);
  else if (Number.isInteger(b / a)) changes.tightened.push(described);
  else if (Number.isInteger(a / b)) changes.loosened.push(described);
  else changes.changed.push(described);
}

function text(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

/** How a default changed: `removed`, `added`, `changed`, or undefined for the same. */
export function defaultChange(
  before: { value: unknown } | undefined,
  after: { value: unknown } | undefined,
): 'removed' | 'added' | 'changed' | undefined {
  if (!before && !after) return undefined;
  if (!after) return 'removed';
  if (!before) return 'added';
  return JSON.stringify(before.value) === JSON.stringify(after.value) ? undefined : 'changed';
}
