/**
 * Turns a Diagnostic into the text users see: `file:line:column: error: message`, then a few lines
 * of the source with line numbers and a caret under the offending text.
 */
import type { Diagnostic } from './diagnostic.js';

const CONTEXT_LINES_BEFORE = 2;
const CONTEXT_LINES_AFTER = 1;

/**
 * Formats one diagnostic. Without `source` (or when the line is out of range) only the first line
 * is printed.
 */
export function formatDiagnostic(d: Diagnostic, source?: string): string {
  const header = `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
  if (source === undefined) return header;
  const frame = codeFrame(source, d.line, d.column, d.length ?? 1);
  return frame ? `${header}\n${frame}` : header;
}

/** Formats several diagnostics, separated by blank lines. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], source?: string): string {
  return diagnostics.map((d) => formatDiagnostic(d, source)).join('\n\n');
}

/**
 * The source lines around `line` with a gutter of line numbers and a `^^^` underline of `length`
 * units starting at `column` (both 1-based). Tabs are kept so the caret lines up in a terminal.
 */
export function codeFrame(source: string, line: number, column: number, length = 1): string {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (line < 1 || line > lines.length) return '';
  const first = Math.max(1, line - CONTEXT_LINES_BEFORE);
  const last = Math.min(lines.length, line + CONTEXT_LINES_AFTER);
  const gutterWidth = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = lines[n - 1];
    const marker = n === line ? '>' : ' ';
    const gutter = `${marker} ${String(n).padStart(gutterWidth)} |`;
    out.push(text.length > 0 ? `${gutter} ${text}` : gutter);
    if (n === line) {
      const before = text.slice(0, Math.max(0, column - 1)).replace(/[^\t]/g, ' ');
      const visible = Math.max(1, Math.min(length, Math.max(1, text.length - (column - 1))));
      out.push(`  ${' '.repeat(gutterWidth)} | ${before}${'^'.repeat(visible)}`);
    }
  }
  return out.join('\n');
}
