/**
 * Places in a document, between the compiler's form (1-based lines and columns, 0-based offsets) and
 * the protocol's (0-based lines and characters). Both count UTF-16 units, the protocol's default
 * position encoding, so no conversion of columns is needed.
 */
import type { Position, Range } from 'vscode-languageserver/node';
import type { SourcePosition, SourceRange } from '../idl/ast.js';
import { lineStartsOf, type LineStarts } from '../idl/line-index.js';

/** The protocol's form of a compiler position. */
export function toPosition(position: SourcePosition): Position {
  return { line: position.line - 1, character: position.column - 1 };
}

/** The protocol's form of a compiler range. */
export function toRange(range: SourceRange): Range {
  return { start: toPosition(range.start), end: toPosition(range.end) };
}

/** A text with its line starts computed once, to turn protocol positions into offsets and back. */
export class LineMap {
  readonly lineStarts: LineStarts;

  constructor(readonly text: string) {
    this.lineStarts = lineStartsOf(text);
  }

  /** The 0-based offset of `position`, clamped into the text (clients may send a place past a line's end). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line];
    const next = position.line + 1 < this.lineStarts.length ? this.lineStarts[position.line + 1] - 1 : this.text.length;
    return Math.min(start + Math.max(0, position.character), next);
  }

  /** The protocol position of a 0-based offset. */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.lineStarts[low] };
  }

  /** The range of the whole text. */
  wholeRange(): Range {
    return { start: { line: 0, character: 0 }, end: this.positionAt(this.text.length) };
  }
}
