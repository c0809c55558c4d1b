/** Test helper: protocol positions of text in a document, found by searching for it. */
import type { Position, Range } from 'vscode-languageserver/node';

/** The position of the `occurrence`-th (0-based) `needle` in `text`, moved `delta` characters right. */
export function positionOf(text: string, needle: string, occurrence = 0, delta = 0): Position {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    if (index === -1) throw new Error(`'${needle}' occurs fewer than ${occurrence + 1} times`);
  }
  index += delta;
  const before = text.slice(0, index);
  const line = before.split('\n').length - 1;
  return { line, character: index - (before.lastIndexOf('\n') + 1) };
}

/** The range of the `occurrence`-th `needle` in `text`. */
export function rangeOf(text: string, needle: string, occurrence = 0): Range {
  const start = positionOf(text, needle, occurrence);
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

/** `line:character-line:character` (0-based), for compact expectations. */
export function showRange(range: Range): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}
