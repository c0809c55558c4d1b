/**
 * How far a change reaches: the levels of docs/breaking.md, from the most to the least severe.
 *
 * - `wire`: an existing JSON-RPC client (or server) of the old contract stops working.
 * - `openapi`: a client of the REST binding breaks (parameters are named there, not positional).
 * - `source`: TypeScript written against the old generated code stops compiling.
 * - `safe`: nothing breaks; listed so that the report doubles as a changelog.
 *
 * The levels are cumulative thresholds: checking at `openapi` also fails on `wire` changes, and
 * checking at `source` fails on every breaking change.
 */

/** A level a change breaks at, or `safe`. */
export type ChangeLevel = 'wire' | 'openapi' | 'source' | 'safe';

/** A level to check at (`-level`, the plugin's `breaking.level`). */
export type CheckLevel = Exclude<ChangeLevel, 'safe'>;

export const CHECK_LEVELS: readonly CheckLevel[] = ['wire', 'openapi', 'source'];

const SEVERITY: Readonly<Record<ChangeLevel, number>> = { wire: 3, openapi: 2, source: 1, safe: 0 };

/** Whether a change of `level` breaks what `threshold` protects. */
export function breaksAt(level: ChangeLevel, threshold: CheckLevel): boolean {
  return SEVERITY[level] >= SEVERITY[threshold];
}

/** The more severe of two levels. */
export function moreSevere(a: ChangeLevel, b: ChangeLevel): ChangeLevel {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/** Orders levels from the most severe. */
export function compareSeverity(a: ChangeLevel, b: ChangeLevel): number {
  return SEVERITY[b] - SEVERITY[a];
}

/** Whether `text` names a check level; for options and flags. */
export function isCheckLevel(text: unknown): text is CheckLevel {
  return typeof text === 'string' && (CHECK_LEVELS as readonly string[]).includes(text);
}
