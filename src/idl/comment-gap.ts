/**
 * The blank and comment lines between two items of an IDL file (a "gap"), read by hand in one pass.
 *
 * A file may hold millions of such lines (32 MiB of blank lines is 33 million of them; of `//` lines,
 * 11 million), so a gap keeps nothing per blank line and one number per comment line: where its `//`
 * is. A comment runs to the end of its line, so that is enough to read its text when it is needed.
 * With where the blank lines stand between comments, that is all the grammar needs to tell a doc
 * comment (the comment lines directly above an item) from the comment groups the formatter keeps.
 */
import type { CommentGroup } from './ast.js';

/** The blank and comment lines between two items. */
export interface Gap {
  /** Offsets of the `//` of each comment line, in order. */
  starts: number[];
  /** Indices into `starts` of the comments with a blank line above them (inside the gap), in order. */
  breaks: number[];
  /** The gap's last line is blank (so no doc comment ends it). */
  endsBlank: boolean;
}

/** What reading a gap found: where it ends, and where a comment line ends in a lone CR, if one does. */
export interface GapRead {
  gap: Gap;
  /** Offset just after the gap's last line. */
  end: number;
  /** Offset of a CR not followed by LF right after a comment: the line cannot end there. */
  loneCarriageReturn?: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const SLASH = 47;

/** The comment of `// text`: without the slashes, one following space and trailing whitespace. */
export function commentText(raw: string): string {
  return raw.slice(raw.charCodeAt(2) === SPACE ? 3 : 2).trimEnd();
}

/** Where the comment whose `//` is at `start` ends: at the line end (CR or LF) or the end of the text. */
export function commentEnd(source: string, start: number): number {
  let end = start + 2;
  for (let c = source.charCodeAt(end); end < source.length && c !== LF && c !== CR; c = source.charCodeAt(++end));
  return end;
}

/** The text of the comment whose `//` is at `start` (see {@link commentText}). */
export function commentAt(source: string, start: number): string {
  return commentText(source.slice(start, commentEnd(source, start)));
}

/**
 * Reads the gap starting at `start` (the start of a line): lines that are blank (spaces or tabs,
 * then LF or CRLF) or hold only a comment (ending with a line end or the end of the text). It stops
 * at the first other line, leaving its leading spaces unread.
 */
export function readGap(input: string, start: number): GapRead {
  const gap: Gap = { starts: [], breaks: [], endsBlank: false };
  let blankAbove = false;
  let i = start;
  while (i < input.length) {
    let j = i;
    let c = input.charCodeAt(j);
    while (c === SPACE || c === TAB) c = input.charCodeAt(++j);
    if (c === LF || (c === CR && input.charCodeAt(j + 1) === LF)) {
      i = j + (c === LF ? 1 : 2);
      blankAbove = true;
      gap.endsBlank = true;
      continue;
    }
    if (c !== SLASH || input.charCodeAt(j + 1) !== SLASH) break;
    const end = commentEnd(input, j);
    if (input.charCodeAt(end) === CR && input.charCodeAt(end + 1) !== LF) return { gap, end: i, loneCarriageReturn: end };
    if (blankAbove) gap.breaks.push(gap.starts.length);
    gap.starts.push(j);
    blankAbove = false;
    gap.endsBlank = false;
    i = end === input.length ? end : end + (input.charCodeAt(end) === LF ? 1 : 2);
  }
  return { gap, end: i };
}

/**
 * Index of the first comment of the doc comment at the end of `gap`: the comment lines after its
 * last blank line (`gap.starts.length` when there is none).
 */
export function docStart(gap: Gap): number {
  if (gap.endsBlank || gap.starts.length === 0) return gap.starts.length;
  return gap.breaks.length > 0 ? gap.breaks[gap.breaks.length - 1] : 0;
}

/** The doc comment at the end of `gap` (its comments from `start`, see `docStart`), or undefined. */
export function docComment(source: string, gap: Gap, start = docStart(gap)): string | undefined {
  if (start === gap.starts.length) return undefined;
  const lines: string[] = [];
  for (let k = start; k < gap.starts.length; k++) lines.push(commentAt(source, gap.starts[k]));
  return lines.join('\n');
}

/** The comments among the first `end` of `gap`, grouped by the blank lines between them. */
export function commentGroups(source: string, gap: Gap, end: number): CommentGroup[] | undefined {
  if (end === 0) return undefined;
  const groups: CommentGroup[] = [];
  let current: CommentGroup = [];
  let nextBreak = 0;
  for (let k = 0; k < end; k++) {
    if (gap.breaks[nextBreak] === k) {
      nextBreak++;
      if (current.length > 0) groups.push(current);
      current = [];
    }
    current.push(commentAt(source, gap.starts[k]));
  }
  groups.push(current);
  return groups;
}
