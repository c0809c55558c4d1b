/**
 * Parsing a file again after an edit. A dev server compiles the same file on every save, and most
 * saves change a line or two: the top-level declarations before the edited text are kept from the
 * previous parse as they are, those after it are kept with their positions moved, and only the
 * declarations the edit touched are parsed again. The tree is the one a full parse gives
 * (test/idl/reparse.test.ts compares them over many edits).
 *
 * What this cannot be sure of is parsed in full: a first parse, a previous parse with syntax errors,
 * an edit of the header (namespace, imports) or of the first declaration, an import written among
 * the declarations, and any edit whose declarations do not parse on their own.
 */
import type { IdlFile, SourcePosition, SourceSpan } from './ast.js';
import { type ParseResult, parse, parseDeclarationsBetween } from './parser.js';

/** Files whose last clean parse is kept, most recently parsed last (a dev server's open files). */
const KEPT_FILES = 16;
const lastCleanParse = new Map<string, IdlFile>();

/**
 * Parses `text` like {@link parse}, reusing the last clean parse of the same `fileName` where the
 * text is as it was. For a caller that parses the same files again and again (a dev server).
 */
export function parseReusing(text: string, fileName: string): ParseResult {
  const previous = lastCleanParse.get(fileName);
  const result = (previous && reparse(previous, text, fileName)) ?? parse(text, fileName);
  const kept = result.diagnostics.length === 0 ? result.file : previous;
  lastCleanParse.delete(fileName);
  if (kept) lastCleanParse.set(fileName, kept);
  if (lastCleanParse.size > KEPT_FILES) lastCleanParse.delete(lastCleanParse.keys().next().value!);
  return result;
}

/** Forgets every kept parse (tests, and a caller that wants memory back). */
export function clearKeptParses(): void {
  lastCleanParse.clear();
}

/** The tree of `text` from the clean tree `previous` of the same file, or undefined to parse in full. */
function reparse(previous: IdlFile, text: string, fileName: string): ParseResult | undefined {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (source === previous.source) return { file: previous, diagnostics: [] };
  const edit = editBetween(previous.source, source);
  const items = new TopLevelItems(previous);
  const first = items.containing(edit.start);
  if (first === 0) return undefined;
  const last = items.lastTouchedBy(edit, first);
  const start = items.startOf(first);
  if (previous.imports?.some((declaration) => declaration.span.start.offset >= start)) return undefined;
  const toEnd = last === items.count;
  const end = toEnd ? undefined : items.startOf(last + 1) + edit.lengthChange;
  const parsed = parseDeclarationsBetween(source, fileName, start, end);
  if (!parsed) return undefined;
  const shift = { offset: edit.lengthChange, line: edit.lineChange };
  const after = previous.declarations.slice(last + 1).map((declaration) => moved(declaration, shift));
  const file: IdlFile = { fileName, source, declarations: [...previous.declarations.slice(0, first), ...parsed.declarations, ...after] };
  if (previous.imports) file.imports = previous.imports;
  const comments = toEnd ? parsed.endComments && { end: parsed.endComments } : previous.comments;
  if (comments) file.comments = comments;
  if (previous.namespace) file.namespace = previous.namespace;
  defineDetachedCommentsByFullParse(file);
  return { file, diagnostics: [] };
}

/** Where two texts differ: `start` is the length of their common beginning, `oldEnd` where the old text's common ending starts. */
interface TextEdit {
  start: number;
  oldEnd: number;
  lengthChange: number;
  lineChange: number;
}

function editBetween(before: string, after: string): TextEdit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let common = 0;
  while (common < shorter - start && before.charCodeAt(before.length - 1 - common) === after.charCodeAt(after.length - 1 - common))
    common++;
  const oldEnd = before.length - common;
  const lineChange = lineBreaksIn(after, start, after.length - common) - lineBreaksIn(before, start, oldEnd);
  return { start, oldEnd, lengthChange: after.length - before.length, lineChange };
}

function lineBreaksIn(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * The top-level declarations of a file as the items the parser reads: item `k` runs from the line
 * after declaration `k - 1` ends (its doc comment and the blank lines above it included) to the end
 * of declaration `k`'s last line. Item `count` is what follows the last declaration.
 */
class TopLevelItems {
  readonly count: number;

  constructor(private readonly file: IdlFile) {
    this.count = file.declarations.length;
  }

  /** Where item `k` starts (for `k` >= 1): the line after declaration `k - 1`, or the end of the text. */
  startOf(k: number): number {
    const { source } = this.file;
    const newline = source.indexOf('\n', this.file.declarations[k - 1].span.end.offset);
    return newline === -1 ? source.length : newline + 1;
  }

  /** The item that holds `offset` (the last item holds the end of the text). */
  containing(offset: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.startOf(mid + 1) > offset) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  /**
   * The last item to parse again for `edit`, from `first`: the one holding its last changed
   * character. (The parse of the items ends at a line break, so the text kept after them starts on
   * a line of its own, at the columns it had.)
   */
  lastTouchedBy(edit: TextEdit, first: number): number {
    return edit.oldEnd > edit.start ? this.containing(edit.oldEnd - 1) : first;
  }
}

/** How far the text after an edit moved. */
interface Shift {
  offset: number;
  line: number;
}

/**
 * A copy of a syntax tree node with every span moved by `shift` (columns stay: the node starts on a
 * line of its own). The value of an attribute (`default={...}`) is JSON as written: shared, not read.
 */
function moved<T>(node: T, shift: Shift): T {
  if (Array.isArray(node)) return node.map((child) => moved(child, shift)) as T;
  if (node === null || typeof node !== 'object') return node;
  if (isSpan(node)) return movedSpan(node, shift) as T;
  const source = node as Record<string, unknown>;
  const isAttributeValue = typeof source.text === 'string' && 'value' in source;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    copy[key] = isAttributeValue && key === 'value' ? source[key] : moved(source[key], shift);
  }
  return copy as T;
}

function isSpan(node: object): node is SourceSpan {
  return 'file' in node && 'start' in node && 'end' in node;
}

function movedSpan(span: SourceSpan, shift: Shift): SourceSpan {
  return { file: span.file, start: movedPosition(span.start, shift), end: movedPosition(span.end, shift) };
}

function movedPosition(position: SourcePosition, shift: Shift): SourcePosition {
  return { offset: position.offset + shift.offset, line: position.line + shift.line, column: position.column };
}

/**
 * `detachedComments` of a reparsed tree, from a full parse when first read: only the formatter reads
 * them, and it parses files itself.
 */
function defineDetachedCommentsByFullParse(file: IdlFile): void {
  Object.defineProperty(file, 'detachedComments', {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = parse(file.source, file.fileName).file.detachedComments;
      Object.defineProperty(file, 'detachedComments', { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
    set: (value) => Object.defineProperty(file, 'detachedComments', { value, writable: true, enumerable: true, configurable: true }),
  });
}
