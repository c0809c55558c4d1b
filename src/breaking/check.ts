/**
 * The breaking-change check as the CLI and the plugin run it: compare, apply the acceptances, sort,
 * and say whether the result fails at the chosen level.
 */
import { type Acceptance, type AcceptProblem, acceptanceOf, acceptDirectives } from './accept.js';
import type { ChangeLocation, Contract } from './contract.js';
import { compareContracts, type ContractChange } from './diff.js';
import { breaksAt, type CheckLevel, compareSeverity } from './levels.js';

/** A change as reported: accepted ones say by what. */
export interface ReportedChange extends ContractChange {
  /** The directive's place, or `flag` for `-accept`; absent when not accepted. */
  acceptedBy?: ChangeLocation | 'flag';
}

export interface BreakingReport {
  level: CheckLevel;
  /** Every change, the most severe first, then by place. */
  changes: ReportedChange[];
  /** The changes that fail the check: not accepted, and breaking at `level` (or more severely). */
  failures: ReportedChange[];
  /** Malformed `// idlrpc:accept` directives. */
  problems: AcceptProblem[];
}

export interface BreakingCheckInput {
  before: Contract;
  after: Contract;
  /** The text of every file of the new program by name: where `// idlrpc:accept` directives are read. */
  sources: ReadonlyMap<string, string>;
  level?: CheckLevel;
  /** Acceptances from outside the files (`-accept`). */
  accept?: readonly Acceptance[];
}

/** Compares two contracts and decides, at `level` (default `wire`), whether the new one breaks the old one's clients. */
export function checkBreaking(input: BreakingCheckInput): BreakingReport {
  const level = input.level ?? 'wire';
  const acceptances: Acceptance[] = [...(input.accept ?? [])];
  const problems: AcceptProblem[] = [];
  for (const [fileName, source] of input.sources) {
    const found = acceptDirectives(source, fileName);
    acceptances.push(...found.acceptances);
    problems.push(...found.problems);
  }
  const changes = compareContracts(input.before, input.after).map((change): ReportedChange => {
    const acceptance = change.level === 'safe' ? undefined : acceptanceOf(change, acceptances);
    return acceptance ? { ...change, acceptedBy: acceptance.origin } : change;
  });
  changes.sort((a, b) => compareSeverity(a.level, b.level) || compareLocations(a.location, b.location));
  const failures = changes.filter((change) => change.acceptedBy === undefined && change.level !== 'safe' && breaksAt(change.level, level));
  return { level, changes, failures, problems };
}

function compareLocations(a: ChangeLocation, b: ChangeLocation): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
