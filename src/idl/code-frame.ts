/**
 * Turns a Diagnostic into the text users see: `file:line:column: error: message`, then a few lines
 * of the source with line numbers and a caret under the offending text.
 *
 * A report shows at most {@link MAX_REPORTED_DIAGNOSTICS} diagnostics, then `and N more`: past that
 * a listing only buries the first errors, and a file with 30,000 of them must not print 30,000
 * frames. The structured diagnostics (`CompileResult.diagnostics`, the errors' `diagnostics`) keep
 * every one.
 *
 * Everything formatted here goes to terminals and overlays, and comes from files anyone may write:
 * control and bidirectional characters in file names, messages and source lines are shown escaped
 * (visible-text.ts), so a crafted file cannot set a terminal's title, clear its screen or reorder
 * what a frame shows.
 */
import type { FormattableDiagnostic } from './diagnostic.js';
import { lineStartsOf, lineTextAt, type LineStarts } from './line-index.js';
import { escapeControlCharacters } from './visible-text.js';

const CONTEXT_LINES_BEFORE = 2;
const CONTEXT_LINES_AFTER = 1;
/**
 * A longer line is shown as a window of this many units around the column, `…` marking the cut
 * ends: a frame stays readable, and a report of a file written on one huge line stays small.
 */
const MAX_FRAME_WIDTH = 120;
const ELLIPSIS = '…';

/** How many diagnostics a formatted report shows before it ends with `and N more`. */
export const MAX_REPORTED_DIAGNOSTICS = 100;

/** A source with its line starts, computed once for every frame of a report. */
interface IndexedSource {
  text: string;
  lineStarts: LineStarts;
}

function indexSource(source: string): IndexedSource {
  const text = source.replace(/^\uFEFF/, '');
  return { text, lineStarts: lineStartsOf(text) };
}

function header(d: FormattableDiagnostic): string {
  return escapeControlCharacters(`${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`);
}

/**
 * Formats one diagnostic. Without `source` (or when the line is out of range) only the first line
 * is printed.
 */
export function formatDiagnostic(d: FormattableDiagnostic, source?: string): string {
  return formatIndexed(d, source === undefined ? undefined : indexSource(source));
}

function formatIndexed(d: FormattableDiagnostic, source: IndexedSource | undefined): string {
  if (source === undefined) return header(d);
  const frame = indexedFrame(source, d.line, d.column, d.length ?? 1);
  return frame ? `${header(d)}\n${frame}` : header(d);
}

/**
 * The texts the diagnostics of a compilation point into: one source (a single file), or the source
 * of each file by its name (a file and the files it imports).
 */
export type DiagnosticSources = string | ReadonlyMap<string, string>;

/**
 * Formats diagnostics with code frames, separated by blank lines: the first
 * {@link MAX_REPORTED_DIAGNOSTICS}, then a last paragraph `and N more` when there are others.
 * With a map of sources, each frame is drawn from the file its diagnostic names.
 */
export function formatDiagnostics(diagnostics: readonly FormattableDiagnostic[], sources?: DiagnosticSources): string {
  const indexed = new Map<string, IndexedSource | undefined>();
  const sourceOf = (d: FormattableDiagnostic): IndexedSource | undefined => {
    if (sources === undefined) return undefined;
    const key = typeof sources === 'string' ? '' : d.file;
    if (!indexed.has(key)) {
      const text = typeof sources === 'string' ? sources : sources.get(d.file);
      indexed.set(key, text === undefined ? undefined : indexSource(text));
    }
    return indexed.get(key);
  };
  const shown = diagnostics.slice(0, MAX_REPORTED_DIAGNOSTICS).map((d) => formatIndexed(d, sourceOf(d)));
  return [...shown, ...moreLine(diagnostics)].join('\n\n');
}

/**
 * One `file:line:column: severity: message` line per diagnostic, without code frames (for tools
 * that draw their own frame): the first {@link MAX_REPORTED_DIAGNOSTICS}, then `and N more`.
 */
export function formatDiagnosticHeaders(diagnostics: readonly FormattableDiagnostic[]): string {
  return [...diagnostics.slice(0, MAX_REPORTED_DIAGNOSTICS).map(header), ...moreLine(diagnostics)].join('\n');
}

function moreLine(diagnostics: readonly FormattableDiagnostic[]): string[] {
  const hidden = diagnostics.length - MAX_REPORTED_DIAGNOSTICS;
  return hidden > 0 ? [`and ${hidden} more`] : [];
}

/**
 * The source lines around `line` with a gutter of line numbers and a `^^^` underline of `length`
 * units starting at `column` (both 1-based). Tabs are kept so the caret lines up in a terminal.
 *
 * `gutter: 'marked'` (the default) marks the error line with `>` and right-aligns the numbers;
 * `'flush'` starts every line with its left-aligned number, so the frame has no leading whitespace
 * (Vite's error overlay trims the frame, which would shift a first line that starts with spaces).
 */
export function codeFrame(source: string, line: number, column: number, length = 1, gutter: FrameGutter = 'marked'): string {
  return indexedFrame(indexSource(source), line, column, length, gutter);
}

/** How the line numbers of a code frame are laid out; see {@link codeFrame}. */
export type FrameGutter = 'marked' | 'flush';

function indexedFrame(
  { text: source, lineStarts }: IndexedSource,
  line: number,
  column: number,
  length: number,
  gutter: FrameGutter = 'marked',
): string {
  if (line < 1 || line > lineStarts.length) return '';
  const first = Math.max(1, line - CONTEXT_LINES_BEFORE);
  const last = Math.min(lineStarts.length, line + CONTEXT_LINES_AFTER);
  const gutterWidth = String(last).length;
  // One window for every line of the frame, so that the caret stays under the same columns.
  const windowStart = Math.max(0, column - 1 - Math.floor(MAX_FRAME_WIDTH / 2));
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const full = lineTextAt(source, lineStarts, n);
    const cut = full.length > MAX_FRAME_WIDTH ? windowStart : 0;
    // A lone carriage return would send the terminal's cursor back over the gutter: show a space.
    const text = full.slice(cut, cut + MAX_FRAME_WIDTH).replace(/\r/g, ' ');
    const shown = `${cut > 0 ? ELLIPSIS : ''}${escapeControlCharacters(text)}${cut + MAX_FRAME_WIDTH < full.length ? ELLIPSIS : ''}`;
    const numbered =
      gutter === 'flush' ? `${String(n).padEnd(gutterWidth)} |` : `${n === line ? '>' : ' '} ${String(n).padStart(gutterWidth)} |`;
    out.push(shown.length > 0 ? `${numbered} ${shown}` : numbered);
    if (n === line) {
      const start = Math.max(0, column - 1 - cut);
      // Measured on the text as shown: an escaped character takes six columns.
      const before = (cut > 0 ? ' ' : '') + escapeControlCharacters(text.slice(0, start)).replace(/[^\t]/g, ' ');
      const underlined = escapeControlCharacters(text.slice(start, start + Math.max(0, length)));
      const visible = Math.max(1, underlined.length);
      const blank = gutter === 'flush' ? ' '.repeat(gutterWidth) : `  ${' '.repeat(gutterWidth)}`;
      out.push(`${blank} | ${before}${'^'.repeat(visible)}`);
    }
  }
  return out.join('\n');
}
