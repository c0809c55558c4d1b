/**
 * Where each line of a text starts, computed once per text: positions (offset -> line/column) and
 * code frames (line -> text) look lines up here instead of splitting the text again each time.
 * A line ends at `\n`; a `\r` right before it belongs to the line end, not to the line's text.
 */

/** 0-based offsets of the first character of every line, in order. */
export type LineStarts = Uint32Array;

/**
 * 0-based offsets of the first character of every line; the first line starts at 0. Four bytes a
 * line, counted before they are stored: a text of 32 MiB of blank lines has 33 million of them, and
 * a growing array of numbers took several times that.
 */
export function lineStartsOf(text: string): LineStarts {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(count);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[line++] = i + 1;
  return starts;
}

/** The text of 1-based line `line` of `text` whose line starts are `starts`, without its line end. */
export function lineTextAt(text: string, starts: LineStarts, line: number): string {
  const start = starts[line - 1];
  let end = line < starts.length ? starts[line] - 1 : text.length;
  if (end > start && text.charCodeAt(end - 1) === 13 && line < starts.length) end--;
  return text.slice(start, end);
}
