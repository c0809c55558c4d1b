/**
 * Where a generated name came from in the IDL, carried through printing.
 *
 * Generated code is built as strings (emitters, then the printer, indent and join them), so the
 * position a name ends up at is known only when the file is finished. An emitter therefore writes
 * an IDL name as `anchored(name, span)`: the name preceded by an invisible marker holding the
 * name's IDL position. When a file is printed, `extractAnchors` removes the markers and returns
 * where each one stood: the mappings of the file's source map (source-map.ts).
 *
 * The markers use three characters of Unicode's private use area. User text never reaches
 * generated code with them: `stringLiteral` and `commentText` (the only ways user text gets into
 * generated code) write them as escapes, so every such character in printed text is a marker.
 */
import type { SourceSpan } from '../idl/ast.js';
import { CodegenError } from './names.js';

/** Starts a marker; the file name (URI-encoded), then `ANCHOR_SEPARATOR`, line and column, `ANCHOR_END`. */
export const ANCHOR_START = '\uE000';
const ANCHOR_SEPARATOR = '\uE001';
const ANCHOR_END = '\uE002';
/** Any of the three marker characters (user text must not contain them unescaped). */
export const ANCHOR_CHARACTERS = /[\uE000-\uE002]/;
const MARKER = /\uE000([^\uE000-\uE002]*)\uE001(\d+):(\d+)\uE002/g;

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
  if (!text.includes(ANCHOR_START)) return { text, anchors: [] };
  const anchors: Anchor[] = [];
  let plain = '';
  let line = 0;
  let lineStart = 0; // offset in `plain` where `line` starts
  let consumed = 0;
  for (const match of text.matchAll(MARKER)) {
    const before = text.slice(consumed, match.index);
    for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
      line++;
      lineStart = plain.length + i + 1;
    }
    plain += before;
    anchors.push({
      line,
      column: plain.length - lineStart,
      source: { file: decodeURIComponent(match[1]), line: Number(match[2]), column: Number(match[3]) },
    });
    consumed = match.index + match[0].length;
  }
  plain += text.slice(consumed);
  if (ANCHOR_CHARACTERS.test(plain)) throw new CodegenError('internal error: a source anchor marker was cut or escaped');
  return { text: plain, anchors };
}
