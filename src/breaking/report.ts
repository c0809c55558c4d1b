/**
 * How a breaking-change report reads: one line per change (`file:line:column: <level>: <rule>:
 * <message>`, accepted ones marked), then a summary; or JSON for machines (`-json`).
 */
import type { ChangeLocation } from './contract.js';
import type { BreakingReport, ReportedChange } from './check.js';
import { type ChangeLevel, CHECK_LEVELS } from './levels.js';

/** `file:line:column`, or the file alone when the place is unknown (a JSON baseline). */
export function locationText(location: ChangeLocation): string {
  if (location.line === undefined) return location.file;
  return `${location.file}:${location.line}${location.column === undefined ? '' : `:${location.column}`}`;
}

/** One change as a line of text. */
export function changeLine(change: ReportedChange): string {
  const accepted =
    change.acceptedBy === undefined
      ? ''
      : change.acceptedBy === 'flag'
        ? ' (accepted by -accept)'
        : ` (accepted at ${locationText(change.acceptedBy)})`;
  return `${locationText(change.location)}: ${change.level}: ${change.rule}: ${change.message}${accepted}`;
}

/** The report for people: every change, the directive problems, and a summary line. */
export function formatReport(report: BreakingReport): string {
  const lines = report.changes.map(changeLine);
  for (const problem of report.problems) lines.push(`${locationText(problem.location)}: warning: ${problem.message}`);
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** `no changes`, or the counts by level, accepted ones, and the verdict at the report's level. */
export function summaryLine(report: BreakingReport): string {
  if (report.changes.length === 0) return 'no changes';
  const count = (level: ChangeLevel) => report.changes.filter((c) => c.level === level).length;
  const parts = [...CHECK_LEVELS.map((level) => [level, count(level)] as const), ['safe', count('safe')] as const]
    .filter(([, n]) => n > 0)
    .map(([level, n]) => (level === 'safe' ? `${n} safe` : `${n} breaking at ${level}`));
  const accepted = report.changes.filter((c) => c.acceptedBy !== undefined).length;
  if (accepted > 0) parts.push(`${accepted} accepted`);
  const verdict =
    report.failures.length === 0
      ? `nothing breaks at level ${report.level}`
      : `${report.failures.length} change${report.failures.length === 1 ? '' : 's'} break${report.failures.length === 1 ? 's' : ''} at level ${report.level}`;
  return `${parts.join(', ')}: ${verdict}`;
}

/** The report as JSON (`-json`): stable keys, one object per change. */
export function reportJson(report: BreakingReport, against: string, file: string): object {
  return {
    against,
    file,
    level: report.level,
    breaking: report.failures.length > 0,
    changes: report.changes.map((change) => ({
      rule: change.rule,
      level: change.level,
      subject: change.subject,
      message: change.message,
      location: change.location,
      accepted: change.acceptedBy !== undefined,
      ...(change.acceptedBy !== undefined ? { acceptedBy: change.acceptedBy } : {}),
      breaking: report.failures.includes(change),
    })),
    problems: report.problems,
  };
}
