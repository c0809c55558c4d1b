/**
 * Where the parser goes on after a syntax error, so that one run reports every independent error
 * (docs/idl.md, "Errors"). Read from the text alone, after a failure: the grammar knows nothing of
 * it, so parsing a valid file pays nothing for it.
 */

/** The kinds of block. */
export type BlockKind = 'enum' | 'struct' | 'errors' | 'interface';
/** A block a parse failed inside of, with its name for "expected '}' to close ..." messages. */
export interface OpenBlock {
  kind: BlockKind;
  label: string;
  /** Offset of the header's keyword. */
  start: number;
  /** The declared name and its offset (an errors block has none). */
  name?: { text: string; offset: number };
}
/** Where to parse again after an error: at `offset` (a line start), inside `block` or at top level. */
export interface ResumePoint {
  offset: number;
  block?: OpenBlock;
}

/**
 * A line that starts a declaration and is a safe place to resume at top level: a declaration keyword
 * followed by a name (`errors` by its brace), so that a line such as `errors int` in a struct, which
 * is a broken field, is not taken for a declaration.
 */
const DECLARATION_START = /^[ \t]*(?:(?:struct|enum|interface|namespace)[ \t]+[A-Za-z]|errors[ \t]*\{|import[ \t]+")/;
const DECLARATION_LINE = new RegExp(DECLARATION_START.source, 'gm');

/** The first declaration line starting at or after the line start `from`, if any. */
function nextDeclarationLine(source: string, from: number): number | undefined {
  DECLARATION_LINE.lastIndex = from;
  for (let match = DECLARATION_LINE.exec(source); match; match = DECLARATION_LINE.exec(source)) {
    // `^` also matches after \r and U+2028 in JavaScript; only real line starts count.
    if (match.index === 0 || source.charCodeAt(match.index - 1) === 10) return match.index;
    DECLARATION_LINE.lastIndex = match.index + 1;
  }
  return undefined;
}

/** A method line complete in itself: `name(` with balanced parentheses and nothing open before it. */
const METHOD_LINE_START = /^[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*\(/;

/**
 * Where to resume after a syntax error at `errorOffset`:
 * 1. at a declaration keyword that starts its line (the block before it was not closed): that line,
 *    at top level; a misplaced `namespace` line is skipped instead;
 * 2. on an item line of an enum, struct or errors block (items take exactly one line), or of an
 *    interface when the method is written on one line, followed by another item or the `}`: the
 *    next line, in the same block;
 * 3. otherwise the next line that starts a declaration, at top level.
 * The skipped lines, including the `}` of a block left at top level, are never looked at again, so
 * they cannot cause errors of their own.
 */
export function resumePointAfter(source: string, errorOffset: number): ResumePoint | undefined {
  const lineStart = errorOffset === 0 ? 0 : source.lastIndexOf('\n', errorOffset - 1) + 1;
  const newline = source.indexOf('\n', errorOffset);
  if (newline === -1) return undefined;
  const nextLineStart = newline + 1;
  const line = source.slice(lineStart, newline);
  const keyword = DECLARATION_START.test(line) ? lineStart + (line.length - line.trimStart().length) : -1;
  if (keyword === errorOffset) {
    if (!line.trimStart().startsWith('namespace')) return { offset: lineStart };
  } else if (keyword === -1) {
    const openBlock = enclosingBlock(source, lineStart);
    const following = nextCodeLine(source, nextLineStart);
    // Before a declaration or the end of the file, the broken line was most likely meant as the
    // block's `}`: resuming inside would only add "expected '}'".
    const itemFollows = following !== undefined && !DECLARATION_START.test(following);
    if (openBlock !== undefined && itemFollows && isWholeItemLine(source, lineStart, line, openBlock.kind)) {
      return { offset: nextLineStart, block: openBlock };
    }
  }
  const next = nextDeclarationLine(source, nextLineStart);
  return next === undefined ? undefined : { offset: next };
}

/** A header line that opens a block (not `{}`); group 1 is the kind, group 2 the name. */
const BLOCK_HEADER =
  /^[ \t]*(?:(struct|enum|interface)[ \t]+([A-Za-z][A-Za-z0-9_]*)(?:[ \t]+extends[ \t]+[A-Za-z][A-Za-z0-9_.]*)?|(errors))[ \t]*\{[ \t]*(?:\/\/.*)?\r?$/;

/**
 * The block that the line starting at `lineStart` is inside of, found by reading upwards to the
 * nearest declaration line or `}` line (blocks do not nest, and items never start with `}`). Found
 * from the text, after a failure, so that parsing a valid file pays nothing for it.
 */
function enclosingBlock(source: string, lineStart: number): OpenBlock | undefined {
  let end = lineStart - 1;
  while (end >= 0) {
    const start = end === 0 ? 0 : source.lastIndexOf('\n', end - 1) + 1;
    const line = source.slice(start, end);
    if (line.trimStart().startsWith('}')) return undefined;
    if (DECLARATION_START.test(line)) {
      const header = BLOCK_HEADER.exec(line);
      if (header === null) return undefined;
      const keyword = start + (line.length - line.trimStart().length);
      if (header[3] !== undefined) return { kind: 'errors', label: 'errors block', start: keyword };
      const lineNumber = countLines(source, start);
      const name = { text: header[2], offset: start + line.indexOf(header[2], keyword - start + header[1].length) };
      return { kind: header[1] as BlockKind, label: `${header[1]} ${header[2]} (line ${lineNumber})`, start: keyword, name };
    }
    end = start - 1;
  }
  return undefined;
}

/** The 1-based number of the line starting at `offset`. */
function countLines(source: string, offset: number): number {
  return count(source.slice(0, offset), '\n') + 1;
}

/**
 * Whether `line` holds one whole item, so that the next line starts the next item. Enum values,
 * fields and errors always take one line; a method may spread its parameters over several lines,
 * so only a method line that opens and closes its parentheses itself, after a line that does not
 * leave a list open, counts. A line with a `}` anywhere may have closed the block (`a int}`), so it
 * never counts.
 */
function isWholeItemLine(source: string, lineStart: number, line: string, kind: BlockKind): boolean {
  if (line.includes('}')) return false;
  if (kind !== 'interface') return true;
  const code = withoutComment(line);
  if (!METHOD_LINE_START.test(code) || count(code, '(') !== count(code, ')')) return false;
  const previous = withoutComment(previousCodeLine(source, lineStart)).trimEnd();
  return !previous.endsWith('(') && !previous.endsWith(',');
}

function withoutComment(line: string): string {
  const comment = line.indexOf('//');
  return comment === -1 ? line : line.slice(0, comment);
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** The nearest line above the one starting at `lineStart` that is neither blank nor only a comment. */
function previousCodeLine(source: string, lineStart: number): string {
  let end = lineStart - 1;
  while (end > 0) {
    const start = source.lastIndexOf('\n', end - 1) + 1;
    const line = source.slice(start, end);
    if (withoutComment(line).trim() !== '') return line;
    end = start - 1;
  }
  return '';
}

/** The first line from the line start `from` on that is neither blank nor only a comment. */
function nextCodeLine(source: string, from: number): string | undefined {
  for (let start = from; start < source.length; ) {
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const line = source.slice(start, end);
    if (withoutComment(line).trim() !== '') return line;
    start = end + 1;
  }
  return undefined;
}

/** A `namespace` line may only come first: allowed at `offset` when no declaration line precedes it. */
export function namespaceAllowedAt(source: string, offset: number): boolean {
  const first = nextDeclarationLine(source, 0);
  return first === undefined || first >= offset;
}
