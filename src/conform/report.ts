/**
 * The text of a `-conform` run: which methods ran and which were skipped (and why), what their
 * answers were, then each violation once, with its rule, the message, the answer and a `curl`
 * command that sends the (shrunk) request again.
 */
import { quote } from './answer-checks.js';
import type { ConformReport, MethodSummary } from './conform-run.js';
import { curlCommand } from './curl-command.js';

export interface ReportHeading {
  url: string;
  file: string;
  seed: number;
  runs: number;
  rate: number;
  rest: boolean;
  /** The header names given with `-header` (their values are not printed). */
  secretHeaders: readonly string[];
}

/** The report as text (ends with a newline). */
export function formatConformReport(report: ConformReport, heading: ReportHeading): string {
  const lines: string[] = [];
  lines.push(
    `idlrpc -conform ${heading.url} ${heading.file}: seed ${heading.seed}, ${heading.runs} runs per method, ${heading.rate} requests/s, ${heading.rest ? 'JSON-RPC and REST' : 'JSON-RPC'}`,
  );
  lines.push(`ran (${report.ran.length}):`);
  for (const method of report.ran) lines.push(`  ${method.name}: ${countsText(method)}`);
  lines.push(`skipped (${report.skipped.length}):`);
  for (const skipped of report.skipped) lines.push(`  ${skipped.name}: ${skipped.reason}`);
  lines.push(`protocol probes: ${report.probes} sent, and rpc-idl compared with the IDL`);
  if (report.violations.length === 0) {
    lines.push(`no violations in ${report.requests} requests`);
    return `${lines.join('\n')}\n`;
  }
  lines.push('');
  report.violations.forEach((violation, i) => {
    lines.push(`${i + 1}. [${violation.rule}] ${violation.subject} (${violation.binding}): ${violation.message}`);
    const answer = violation.answer ? `HTTP ${violation.answer.status} ${quote(violation.answer.text)}` : 'none';
    lines.push(`   answer: ${answer}`);
    lines.push(
      `   request${violation.shrinkSteps > 0 ? ` (shrunk in ${violation.shrinkSteps} steps)` : ''}: ${curlCommand(violation.request, heading.secretHeaders)}`,
    );
  });
  lines.push('');
  if (heading.secretHeaders.length > 0) {
    lines.push(
      `the curl commands read the -header values from ${heading.secretHeaders.map((_, i) => `IDLRPC_HEADER_${i + 1}`).join(', ')}`,
    );
  }
  lines.push(`${report.violations.length} violation${report.violations.length === 1 ? '' : 's'} in ${report.requests} requests`);
  return `${lines.join('\n')}\n`;
}

const KIND_WORDS: Record<string, string> = {
  result: 'results',
  'declared-error': 'declared errors',
  refused: 'valid requests refused with -32602 by the service',
  'server-error': 'server errors (-32000..-32099)',
  'rejected-invalid': 'invalid requests refused with -32602',
};

function countsText(method: MethodSummary): string {
  const parts = Object.entries(method.counts).map(([kind, count]) => `${count} ${KIND_WORDS[kind] ?? kind}`);
  if (method.note) parts.push(method.note);
  return parts.length > 0 ? parts.join(', ') : 'no conforming answer';
}
