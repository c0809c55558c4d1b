/**
 * Where a generated name came from in the IDL, carried through printing.
 *
 * Generated code is built as strings (emitters, then the printer, indent and join them), so the
 * position a name ends up at is known only when the file is finished. An emitter therefore writes
 * an IDL name as `anchored(name, span)`: the name preceded by an invisible marker holding the
 * name's IDL position. When a file is printed, `extractAnchors` removes the markers and returns
 * where each one stood: the mappings of the file's source map (source-map.ts).
 *
 * The markers use three ASCII control characters (SOH, STX, ETX). Characters below U+0100 keep the
 * printed text in the engine's one-byte strings: a marker of the private use area (as they were)
 * made every string it passed through two bytes a character, the finished module too (twice the
 * memory, and slower to hash, encode and send for everything that handles it after us). User text
 * never reaches generated code with them: `stringLiteral` and `commentText` (the only ways user text
 * gets into generated code) write them as escapes, as does the TypeBox code built from a user's
 * `pattern` (typebox-output.ts), so every such character in printed text is a marker.
 */
import type { SourceSpan } from '../idl/ast.js';
import { CodegenError } from './names.js';

/** Starts a marker; the file name (URI-encoded), then `ANCHOR_SEPARATOR`, line and column, `ANCHOR_END`. */
export const ANCHOR_START = '\u0001';
const ANCHOR_SEPARATOR = '\u0002';
const ANCHOR_END = '\u0003';
/** Any of the three marker characters (user text must not contain them unescaped). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the markers are control characters
export const ANCHOR_CHARACTERS = /[\u0001-\u0003]/;

/** A position in an IDL file: `line` and `column` 1-based, like the syntax tree's. */
export interface IdlPosition {
  file: string;
  line: number;
  column: number;
}

/** `text` (a name printed into generated code) marked as written at the start of `span`. */
export function anchored(text: string, span: SourceSpan): string {
  return `${ANCHOR_START}${encodeURIComponent(span.file)}${ANCHOR_SEPARATOR}${span.start.line}:${span.start.column}${ANCHOR_END}${text}`;
}

/** Where one marker stood in the finished text: 0-based line and column (UTF-16 units). */
export interface Anchor {
  line: number;
  column: number;
  source: IdlPosition;
}

/** `text` without its markers, and where each marker stood, in order. */
export function extractAnchors(text: string): { text: string; anchors: Anchor[] } {
  let start = text.indexOf(ANCHOR_START);
  if (start === -1) return { text, anchors: [] };
  // Scanned with indexOf, not a global expression: printing the 10,000-line IDL meets about 100,000
  // markers, and a match array per marker was the generator's largest single cost.
  const anchors: Anchor[] = [];
  const pieces: string[] = [];
  let line = 0;
  let lineStart = 0; // offset in the plain text where `line` starts
  let plainLength = 0;
  let consumed = 0;
  let encodedFile = '';
  let file = '';
  for (; start !== -1; start = text.indexOf(ANCHOR_START, consumed)) {
    for (let i = text.indexOf('\n', consumed); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = plainLength + (i - consumed) + 1;
    }
    pieces.push(text.slice(consumed, start));
    plainLength += start - consumed;
    const marker = markerAt(text, start);
    // A marker that was cut or escaped is left in the text, which the check below refuses.
    if (marker === undefined) {
      pieces.push(ANCHOR_START);
      plainLength++;
      consumed = start + 1;
      continue;
    }
    if (marker.encodedFile !== encodedFile) {
      encodedFile = marker.encodedFile;
      file = decodeURIComponent(encodedFile);
    }
    anchors.push({ line, column: plainLength - lineStart, source: { file, line: marker.line, column: marker.column } });
    consumed = marker.end;
  }
  pieces.push(text.slice(consumed));
  const plain = pieces.join('');
  if (ANCHOR_CHARACTERS.test(plain)) throw new CodegenError('internal error: a source anchor marker was cut or escaped');
  return { text: plain, anchors };
}

const MARKER_POSITION = /^(\d+):(\d+)$/;

/** The marker starting at `start` (its file still URI-encoded) and the offset after it; undefined for a malformed one. */
function markerAt(text: string, start: number): { encodedFile: string; line: number; column: number; end: number } | undefined {
  const separator = text.indexOf(ANCHOR_SEPARATOR, start + 1);
  const end = separator === -1 ? -1 : text.indexOf(ANCHOR_END, separator + 1);
  if (end === -1) return undefined;
  const encodedFile = text.slice(start + 1, separator);
  const position = MARKER_POSITION.exec(text.slice(separator + 1, end));
  if (position === null || ANCHOR_CHARACTERS.test(encodedFile)) return undefined;
  return { encodedFile, line: Number(position[1]), column: Number(position[2]), end: end + 1 };
}
