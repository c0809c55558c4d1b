/**
 * The IDL parser: text in, syntax tree out. This is the only file that knows about Parsimmon.
 *
 * The IDL is line-oriented: a declaration header ends its line, and every enum value, struct field,
 * error and method takes exactly one line. `//` comment lines directly above an item (no blank line
 * between) become its doc comment. Every other comment is recorded in the `comments` of the nearest
 * node (see `Comments` in ast.ts) for the formatter; nothing else reads those.
 *
 * Syntax errors name what was expected in plain words. Parsimmon reports the furthest position it
 * reached together with the labels (`.desc`) of every rule that failed there; `describeFailure`
 * turns those labels into one sentence. A label that starts with SPECIFIC is already a whole
 * message (for example a reserved word used as a name) and wins over the others.
 *
 * After a syntax error the parser resumes at a safe line and keeps going, so one run reports every
 * independent error (see `collectSyntaxErrors`); a valid file never takes that path.
 */
import P from 'parsimmon';
import { attributeListGrammar, VALUE_LABEL, withAttributes } from './attribute-parser.js';
import type {
  Attribute,
  BuiltInTypeName,
  CommentGroup,
  Comments,
  Declaration,
  DetachedComment,
  Documented,
  EnumDecl,
  EnumValue,
  ErrorDecl,
  ErrorsBlock,
  Field,
  IdlFile,
  ImportDecl,
  InterfaceDecl,
  Method,
  Name,
  NamespaceDecl,
  Parameter,
  SourcePosition,
  SourceSpan,
  StructDecl,
  TypeRef,
  UnionAttribute,
  UnionDecl,
  UnionVariant,
} from './ast.js';
import { errorAt, relatedLocation, type Diagnostic, type RelatedLocation } from './diagnostic.js';
import { IdlSyntaxError } from './errors.js';
import { commentAt, commentEnd, commentGroups, commentText, docComment, docStart, readGap, type Gap } from './comment-gap.js';
import { lineStartsOf } from './line-index.js';
import { RESERVED_WORDS } from './names.js';
import { PartialTreeBuilder } from './partial-tree.js';
import { namespaceAllowedAt, resumePointAfter, type BlockKind, type OpenBlock } from './syntax-recovery.js';

export { RESERVED_WORDS, IDENTIFIER_PATTERN } from './names.js';

/**
 * A declaration header (`struct Cart {`, `errors {`, ...) at the start of `line`: inside a block it
 * means the block's `}` is missing, which deserves a better message than "reserved word".
 */
const DECLARATION_HEADER =
  /^(?:(?:struct|enum|interface)[ \t]+[A-Za-z][A-Za-z0-9_]*(?:[ \t]+extends[ \t]+[A-Za-z][A-Za-z0-9_.]*)?[ \t]*\{|union[ \t]+[A-Za-z][A-Za-z0-9_]*[ \t]*(?:\[[^\]\r\n]*\][ \t]*)?\{|errors[ \t]*\{|import[ \t]+"|namespace[ \t]+[A-Za-z][A-Za-z0-9_]*[ \t]*(?:\/\/.*)?\r?$)/;

const IDENTIFIER_AT = /[A-Za-z][A-Za-z0-9_]*/y;

/** The identifier starting at offset `i`, if there is one. */
function identifierAt(input: string, i: number): string | undefined {
  IDENTIFIER_AT.lastIndex = i;
  return IDENTIFIER_AT.exec(input)?.[0];
}

/** A name of another file's namespace is written qualified: `common.Money`. */
const REFERENCE_AT = /[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*/y;

/** The (possibly qualified) name starting at offset `i`, if there is one. */
function referenceAt(input: string, i: number): string | undefined {
  REFERENCE_AT.lastIndex = i;
  return REFERENCE_AT.exec(input)?.[0];
}

function lineAt(input: string, i: number): string {
  const end = input.indexOf('\n', i);
  return input.slice(i, end === -1 ? input.length : end);
}

/** An expectation label that is already a complete message. */
const SPECIFIC = '\u0000';
/** Labels of rules that are always possible (comments, blank lines); left out of messages. */
const NOISE = '\u0001';

const TYPE_LABEL = 'a type such as string, int, float, bool, []T, map[string]T or a struct or enum name';
const RETURN_TYPE_LABEL = 'a return type such as string, int, float, bool, []T, map[string]T or a struct or enum name';
const DECLARATION_LABEL = 'a declaration (namespace, import, enum, struct, union, errors or interface)';
const END_OF_LINE = 'the end of the line';

/** Labels in the order they read best in "expected A, B or C"; unlisted labels go in the middle. */
const LABEL_ORDER = [TYPE_LABEL, RETURN_TYPE_LABEL, DECLARATION_LABEL, "','", "')'", "'}'", "'[optional]'", "'raises'", END_OF_LINE];

/** What `parse` returns: a tree, whole or partial, and every syntax error. */
export interface ParseResult {
  /**
   * The syntax tree. With syntax errors it is partial: every declaration read whole, and of one the
   * parser gave up on, its name, parent and the items read before the error and after resuming in
   * its block (docs/idl.md, "Errors"); `detachedComments` and the file's and such a declaration's
   * block comments (which only the formatter reads) are left out. Parsing stops
   * at the {@link MAX_SYNTAX_ERRORS}th error, and so does the tree.
   */
  file: IdlFile;
  /** Every syntax error, in file order (at most {@link MAX_SYNTAX_ERRORS}); empty when the text is valid. */
  diagnostics: Diagnostic[];
}

/**
 * Parses IDL source text into a syntax tree, going on after syntax errors. A leading byte order
 * mark is dropped, so offsets, lines and columns (1-based, UTF-16 units) refer to the text after it.
 * Never throws on bad input.
 */
export function parse(text: string, fileName: string): ParseResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (TOO_DEEP_TYPE.test(source)) return parseWithTooDeepTypes(source, fileName);
  return parseSource(source, fileName);
}

/**
 * Parses IDL source text into a syntax tree. A leading byte order mark is dropped, so offsets,
 * lines and columns (1-based, UTF-16 units) refer to the text after it.
 *
 * @throws IdlSyntaxError with every syntax error found (`diagnostics`, in file order; at most
 * {@link MAX_SYNTAX_ERRORS}); `diagnostic` is the first.
 */
export function parseIdl(text: string, fileName: string): IdlFile {
  const { file, diagnostics } = parse(text, fileName);
  if (diagnostics.length > 0) throw new IdlSyntaxError(diagnostics, file.source);
  return file;
}

/**
 * Parses `source`; the tree's `source` is `original` (the text before blanking lines out, which
 * keeps every line where it was, so `positionOf` may be the original's).
 */
function parseSource(source: string, fileName: string, original = source, positionOf = createPositionLookup(source)): ParseResult {
  const grammar = createGrammar(fileName, source, positionOf);
  const reply = runParser(grammar.file, source, 0);
  if (reply.status) {
    reply.value.source = original;
    return { file: reply.value, diagnostics: [] };
  }
  const diagnostics = collectSyntaxErrors(grammar, fileName, source, reply);
  return { file: grammar.tree.file(fileName, original), diagnostics };
}

/** What {@link parseDeclarationsBetween} read. */
export interface ParsedDeclarations {
  declarations: Declaration[];
  /** Read to the end of the file: the comment groups after the last declaration (`IdlFile.comments.end`). */
  endComments?: CommentGroup[];
}

/**
 * The top-level declarations written in `source` from offset `start` (the start of a line) to `end`
 * (the start of a line; the end of the file when undefined), each with the comments above it, parsed
 * with the positions of the whole `source`: for parsing a file again after an edit (reparse.ts).
 * Undefined unless that text is declarations only, without syntax errors, ending exactly at `end`:
 * an import, a namespace or anything the full parse might read differently is left to it.
 */
export function parseDeclarationsBetween(source: string, fileName: string, start: number, end?: number): ParsedDeclarations | undefined {
  if (TOO_DEEP_TYPE.test(source.slice(start, end))) return undefined;
  const grammar = createGrammar(fileName, source, createPositionLookup(source));
  const declarations: Declaration[] = [];
  let at = start;
  for (;;) {
    if (end !== undefined && at >= end) return at === end ? { declarations } : undefined;
    const reply = runParser(grammar.declarationItem, source, at);
    if (!reply.status) break;
    declarations.push(reply.value);
    at = reply.index;
  }
  if (end !== undefined) return undefined;
  const rest = runParser(grammar.endOfFile, source, at);
  if (!rest.status) return undefined;
  return rest.value === undefined ? { declarations } : { declarations, endComments: rest.value };
}

/**
 * A file with types nested too deep to parse: one error per such line, and the tree and errors of
 * the rest of the file, found by parsing it with those lines blanked out (spaces keep every offset,
 * line and column as they were).
 */
function parseWithTooDeepTypes(source: string, fileName: string): ParseResult {
  const positionOf = createPositionLookup(source);
  const tooDeep: Diagnostic[] = [];
  const parts: string[] = [];
  let copied = 0;
  const pattern = new RegExp(TOO_DEEP_TYPE.source, 'g');
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const message = `this type is nested more than ${MAX_TYPE_DEPTH} levels deep`;
    tooDeep.push(syntaxError(fileName, positionOf, match.index, match.index + 2, message, 2));
    const lineStart = match.index - positionOf(match.index).column + 1;
    const newline = source.indexOf('\n', match.index);
    let lineEnd = newline === -1 ? source.length : newline;
    if (source.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    parts.push(source.slice(copied, lineStart), ' '.repeat(lineEnd - lineStart));
    copied = lineEnd;
    pattern.lastIndex = lineEnd;
  }
  parts.push(source.slice(copied));
  const { file, diagnostics: others } = parseSource(parts.join(''), fileName, source, positionOf);
  const diagnostics = [...tooDeep, ...others].sort((a, b) => a.line - b.line || a.column - b.column).slice(0, MAX_SYNTAX_ERRORS);
  return { file, diagnostics };
}

/** Like other compilers, stop after this many syntax errors: later ones are mostly noise. */
export const MAX_SYNTAX_ERRORS = 50;

type Grammar = ReturnType<typeof createGrammar>;
type Failure = { furthest: number; expected: string[] };

/**
 * Every syntax error of a file whose parse failed with `first`. After each error the parser resumes
 * at a safe line (`resumePointAfter`) with the whole input, so positions stay those of the file.
 * An error that is not strictly after the previous one ends the search: when in doubt, report fewer.
 * What the resumed parses read goes into the grammar's partial tree.
 */
function collectSyntaxErrors(grammar: Grammar, fileName: string, source: string, first: Failure): Diagnostic[] {
  const { positionOf } = grammar;
  const diagnostics = [syntaxDiagnostic(grammar, fileName, source, positionOf, first)];
  let failure = first;
  while (diagnostics.length < MAX_SYNTAX_ERRORS) {
    const resume = resumePointAfter(source, failure.furthest);
    if (resume === undefined) break;
    let parser: P.Parser<unknown>;
    if (resume.block === undefined) {
      grammar.tree.resumedAtTopLevel();
      parser = grammar.restOfFile(namespaceAllowedAt(source, resume.offset));
    } else {
      grammar.tree.resumedIn(resume.block);
      parser = grammar.restOfBlock(resume.block);
    }
    const reply = runParser(parser, source, resume.offset);
    if (reply.status || reply.furthest <= failure.furthest) break;
    failure = reply;
    diagnostics.push(syntaxDiagnostic(grammar, fileName, source, positionOf, failure));
  }
  return diagnostics;
}

/** Deeper types would overflow the parser's stack; no real contract comes near this. */
export const MAX_TYPE_DEPTH = 100;
const TOO_DEEP_TYPE = new RegExp(`(?:\\[\\][ \\t]*|map[ \\t]*\\[[ \\t]*string[ \\t]*\\][ \\t]*){${MAX_TYPE_DEPTH + 1}}`);

// Parsimmon's own `parse()` caches line/column tables keyed by the whole input string in a
// module-level object that is never cleared (a leak in a long-running dev server), so we call the
// parser function directly and compute positions ourselves.
type RawReply<T> = { status: true; value: T; index: number } | { status: false; furthest: number; expected: string[] };
function runParser<T>(parser: P.Parser<T>, input: string, start: number): RawReply<T> {
  const run = (parser as unknown as { _: (input: string, i: number) => P.Reply<T> & { furthest: number; index: number } })._;
  const reply = run.call(parser, input, start);
  if (reply.status) return { status: true, value: reply.value, index: reply.index };
  return { status: false, furthest: reply.furthest, expected: reply.expected };
}

/** Maps 0-based offsets to 1-based line/column positions. */
export function createPositionLookup(source: string): (offset: number) => SourcePosition {
  const lineStarts = lineStartsOf(source);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { offset, line: low + 1, column: offset - lineStarts[low] + 1 };
  };
}

function syntaxDiagnostic(
  grammar: Grammar,
  fileName: string,
  source: string,
  positionOf: (offset: number) => SourcePosition,
  { furthest: offset, expected }: Failure,
): Diagnostic {
  const found = /^(?:\[optional\]|[A-Za-z0-9_]+|[^\s])/.exec(source.slice(offset, offset + 200));
  // No rule consumes a lone CR, so a parse that stops at one stops because of it.
  const loneCarriageReturn = isLoneCarriageReturn(source, offset);
  const specific = expected.find((label) => label.startsWith(SPECIFIC));
  const message = loneCarriageReturn
    ? LONE_CARRIAGE_RETURN
    : specific !== undefined
      ? specific.slice(SPECIFIC.length)
      : describeFailure(expected, offset >= source.length);
  // The range is the text the caret underlines; empty where there is none (a line end, the end of the file).
  const end = offset + (found ? found[0].length : loneCarriageReturn ? 1 : 0);
  const block = specific === undefined || loneCarriageReturn ? undefined : grammar.blockNamedBy.get(specific);
  const related = block && [relatedLocation(`${block.kind} ${block.name.text} starts here`, block.name.span)];
  return syntaxError(fileName, positionOf, offset, end, message, found ? found[0].length : 1, related);
}

function syntaxError(
  fileName: string,
  positionOf: (offset: number) => SourcePosition,
  start: number,
  end: number,
  message: string,
  length: number,
  related?: RelatedLocation[],
): Diagnostic {
  const span = { file: fileName, start: positionOf(start), end: positionOf(end) };
  return errorAt('syntax', message, span, related ? { length, related } : { length });
}

/**
 * Lines end with LF or CRLF. A CR on its own (old Mac line ends, or a stray one) is neither a line
 * end nor whitespace: reporting it by name beats "expected the end of the line" in front of what
 * looks like one.
 */
const LONE_CARRIAGE_RETURN = 'a carriage return (CR) must be followed by a line feed (LF): end lines with LF or CRLF';

/**
 * A success that also reports a failure at `furthest`, like a Parsimmon `many` whose last try failed
 * there: Parsimmon merges that failure into whatever fails after it.
 */
function successFailingFurther<T>(index: number, value: T, furthest: number, expected: string): P.Reply<T> {
  const failure = { furthest, expected: [expected] };
  return { ...P.makeSuccess(index, value), ...failure } as unknown as P.Reply<T>;
}

function isLoneCarriageReturn(source: string, offset: number): boolean {
  return source.charCodeAt(offset) === 13 && source.charCodeAt(offset + 1) !== 10;
}

/** One sentence from Parsimmon's expectation labels, none of which is a complete message. */
function describeFailure(expected: string[], atEndOfFile: boolean): string {
  const labels = expected.filter((label) => !label.startsWith(NOISE));
  const rank = (label: string) => {
    const index = LABEL_ORDER.indexOf(label);
    if (index !== -1) return index;
    return label.startsWith("'") ? LABEL_ORDER.indexOf("','") - 0.5 : LABEL_ORDER.indexOf(DECLARATION_LABEL) + 0.5;
  };
  labels.sort((a, b) => rank(a) - rank(b));
  const listed = labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
  const prefix = atEndOfFile ? 'unexpected end of file: ' : '';
  return listed ? `${prefix}expected ${listed}` : `${prefix}unexpected text`;
}

/**
 * The doc comment of the declaration whose keyword is at `start`, read from the text: the comment
 * lines directly above its line (for a declaration the grammar gave up on, which never got its
 * comments from `item`).
 */
function docCommentAbove(source: string, start: number): string | undefined {
  const above: string[] = [];
  let lineStart = source.lastIndexOf('\n', start - 1) + 1;
  while (lineStart > 0) {
    const previous = source.lastIndexOf('\n', lineStart - 2) + 1;
    const line = source.slice(previous, lineStart - 1).replace(/^[ \t]+/, '');
    if (!line.startsWith('//')) break;
    above.push(commentText(line));
    lineStart = previous;
  }
  return above.length === 0 ? undefined : above.reverse().join('\n');
}

/**
 * Sets `file.detachedComments` from the offsets of their `//`, made into objects with positions only
 * when read: no tool of this package reads them, and a file of millions of comment lines would
 * otherwise hold an object and two positions for each.
 */
function defineDetachedComments(
  file: IdlFile,
  source: string,
  runs: readonly DetachedRun[],
  spanOf: (start: number, end: number) => SourceSpan,
): void {
  const settle = (value: DetachedComment[] | undefined): DetachedComment[] | undefined => {
    Object.defineProperty(file, 'detachedComments', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(file, 'detachedComments', {
    enumerable: true,
    configurable: true,
    get: () => {
      const starts = runs.flatMap((run) => run.starts.slice(0, run.end));
      // Backtracking may have recorded a comment out of order.
      const ordered = isAscending(starts) ? starts : starts.sort((a, b) => a - b);
      return settle(ordered.map((start) => ({ text: commentAt(source, start), span: spanOf(start, commentEnd(source, start)) })));
    },
    set: settle,
  });
}

/** The first `end` comments of a gap (whose `starts` array is shared, not copied). */
interface DetachedRun {
  starts: readonly number[];
  end: number;
}

function isAscending(numbers: readonly number[]): boolean {
  for (let k = 1; k < numbers.length; k++) if (numbers[k] < numbers[k - 1]) return false;
  return true;
}

/**
 * Adds a doc comment, leading comment groups and a trailing comment to `node`, which the grammar has
 * just built (Parsimmon does not memoize, so no other tree shares it), in place: copying every
 * commented node made parsing a heavily commented file measurably slower.
 */
function withComments<T extends Documented>(
  node: T,
  doc: string | undefined,
  leading: CommentGroup[] | undefined,
  trailing: string | undefined,
): T {
  if (doc !== undefined) node.comment = doc;
  if (leading !== undefined || trailing !== undefined) {
    const comments: Comments = node.comments ?? (node.comments = {});
    if (leading !== undefined) comments.leading = leading;
    if (trailing !== undefined) comments.trailing = trailing;
  }
  return node;
}

/** What a block holds: its items, and the comments after `{` and before `}`. */
interface BlockContents<T> {
  items: T[];
  comments?: Comments;
}

/** The `comments` property of a block declaration, or nothing. */
function blockComments<T>(contents: BlockContents<T>): { comments?: Comments } {
  return contents.comments ? { comments: contents.comments } : {};
}

/** A comment inside a parameter list; `ownLine` when it is the first thing on its line. */
interface ParenComment {
  text: string;
  ownLine: boolean;
}
const NO_PAREN_COMMENTS: readonly ParenComment[] = Object.freeze([]);

/**
 * Places the comments of a parameter list: a comment on the line of a parameter (after it or after
 * its comma) trails that parameter; any other comment goes above the next parameter, or at the end
 * of the list when no parameter follows. `gaps[k]` holds the comments before parameter `k`
 * (`gaps[parameters.length]`: before `)`).
 */
function placeParameterComments(
  parameters: Parameter[],
  gaps: (readonly ParenComment[])[],
): { parameters: Parameter[]; end?: CommentGroup } {
  const leading: (string[] | undefined)[] = [];
  const trailing: (string | undefined)[] = [];
  for (let k = 0; k < gaps.length; k++) {
    for (const comment of gaps[k]) {
      if (!comment.ownLine && k > 0 && trailing[k - 1] === undefined) trailing[k - 1] = comment.text;
      else (leading[k] ??= []).push(comment.text);
    }
  }
  const placed = parameters.map((parameter, k) => {
    if (leading[k] === undefined && trailing[k] === undefined) return parameter;
    const comments: Comments = {};
    if (leading[k] !== undefined) comments.leading = [leading[k]!];
    if (trailing[k] !== undefined) comments.trailing = trailing[k];
    return { ...parameter, comments };
  });
  const end = leading[parameters.length];
  return end === undefined ? { parameters: placed } : { parameters: placed, end };
}

function createGrammar(fileName: string, source: string, positionOf: (offset: number) => SourcePosition) {
  const spanOf = (start: number, end: number): SourceSpan => ({
    file: fileName,
    start: positionOf(start),
    end: positionOf(end),
  });

  /** What has been read of a file with syntax errors (valid files ignore it). */
  const tree = new PartialTreeBuilder(spanOf, (start) => docCommentAbove(source, start));
  /** Reports an item to `tree` as it is read. */
  const read = <T extends EnumValue | Field | ErrorDecl | Method>(item: T): T => (tree.itemRead(item), item);
  /** Reports a whole declaration to `tree`. */
  const completed = <T extends Declaration>(declaration: T): T => (tree.completed(declaration), declaration);

  /** The current offset, consuming nothing. */
  const offset = P((_input, i) => P.makeSuccess(i, i));
  /** Runs `parser` and returns its value together with the span it consumed. */
  const spanned = <T>(parser: P.Parser<T>): P.Parser<[T, SourceSpan]> =>
    P.seqMap(offset, parser, offset, (start, value, end) => [value, spanOf(start, end)]);
  /** Fails at the current position with a complete message. */
  const failWith = (message: string) => P<never>((_input, i) => P.makeFailure(i, SPECIFIC + message));

  const hspace = P.regexp(/[ \t]*/);
  /** Whitespace inside parentheses, where a signature may be spread out. */
  const parenSpace = P.regexp(/(?:[ \t\n]|\r\n)*/);
  const trailingComment = P.regexp(/\/\/[^\r\n]*/).desc(NOISE + 'comment');
  const newline = P.regexp(/\r?\n/);
  /** End of an item's line: optional spaces and trailing comment, then a newline or the end of the file. */
  const lineEnd: P.Parser<string | undefined> = P.seqMap(
    hspace,
    trailingComment.atMost(1),
    P.alt(newline.desc(END_OF_LINE), P.eof.desc(NOISE + 'eof')),
    (_s, comment) => (comment.length > 0 ? commentText(comment[0]) : undefined),
  );

  /**
   * Blank and comment lines between items, read by hand (comment-gap.ts): a file may hold millions
   * of them. The alternatives after a gap each read it again from the same offset, so the last read
   * is remembered.
   */
  let lastGap: { start: number; reply: P.Reply<Gap> } | undefined;
  const gap = P<Gap>((input, i) => {
    if (lastGap?.start === i) return lastGap.reply;
    const { gap: value, end, loneCarriageReturn } = readGap(input, i);
    // A comment's line cannot end at a lone CR: whatever fails after the gap fails there.
    const reply =
      loneCarriageReturn === undefined
        ? P.makeSuccess(end, value)
        : successFailingFurther(end, value, loneCarriageReturn, SPECIFIC + LONE_CARRIAGE_RETURN);
    lastGap = { start: i, reply };
    return reply;
  });
  /** Comments the tree does not keep (not directly above an item), collected for the formatter. */
  const detached: DetachedRun[] = [];
  const rememberDetached = (lines: Gap, attached: boolean) => {
    const end = attached ? docStart(lines) : lines.starts.length;
    if (end > 0) detached.push({ starts: lines.starts, end });
  };

  const keyword = (word: string, label = `'${word}'`) => P.regexp(new RegExp(`${word}(?![A-Za-z0-9_])`)).desc(label);
  const token = (text: string) => P.string(text).desc(`'${text}'`);

  /**
   * A name being declared. `block` names the enclosing block, so that a declaration keyword where
   * an item was expected can be reported as a missing `}`.
   */
  const declaredName = (label: string, block?: () => string) =>
    P<Name>((input, i) => {
      const text = identifierAt(input, i);
      if (text === undefined) return P.makeFailure(i, label);
      if (block && DECLARATION_HEADER.test(lineAt(input, i))) {
        const label = `${SPECIFIC}expected '}' to close ${block()} before this '${text}'`;
        if (currentBlockName) blockNamedBy.set(label, currentBlockName);
        return P.makeFailure(i, label);
      }
      if (RESERVED_WORDS.has(text)) {
        return P.makeFailure(i, `${SPECIFIC}'${text}' is a reserved word and cannot be used as a name`);
      }
      return P.makeSuccess(i + text.length, { text, span: spanOf(i, i + text.length) });
    });

  /** A name used as a reference (a type, a parent, a raised error). */
  const referencedName = (label: string) =>
    P<Name>((input, i) => {
      const text = referenceAt(input, i);
      if (text === undefined || text.split('.').some((part) => RESERVED_WORDS.has(part))) return P.makeFailure(i, label);
      return P.makeSuccess(i + text.length, { text, span: spanOf(i, i + text.length) });
    });

  const typeRef = (label: string): P.Parser<TypeRef> =>
    P.alt(
      spanned(P.regexp(/(?:string|int|float|bool)(?![A-Za-z0-9_])/).desc(label)).map(
        ([name, span]): TypeRef => ({ kind: 'builtIn', name: name as BuiltInTypeName, span }),
      ),
      spanned(
        P.seq(
          P.string('[]').desc(label),
          P.lazy(() => typeRef(TYPE_LABEL)),
        ),
      ).map(([[, element], span]): TypeRef => ({ kind: 'array', element, span })),
      spanned(
        P.seq(
          keyword('map', label),
          hspace,
          token('['),
          hspace,
          P.alt(keyword('string'), failWith('map keys must be string: write map[string]T')),
          hspace,
          token(']'),
          P.lazy(() => typeRef(TYPE_LABEL)),
        ),
      ).map(([parts, span]): TypeRef => ({ kind: 'map', value: parts[7], span })),
      referencedName(label).map((name): TypeRef => ({ kind: 'named', name: name.text, span: name.span })),
    );

  /** `[optional]`, or an attribute list such as `[optional, default=30, max=100]`, after a type. */
  const attributeList: P.Parser<Attribute[]> = P.lazy(() =>
    attributeListGrammar({
      spanned,
      hspace,
      token,
      quotedText: quotedText(VALUE_LABEL, 'text'),
      failAt: (offset, message) => P.makeFailure(offset, SPECIFIC + message),
    }),
  );

  /** An item line inside a block (or a declaration), with its doc comment and other comments. */
  const item = <T extends Documented>(parser: P.Parser<T>): P.Parser<T> =>
    P.seqMap(gap, hspace, parser, lineEnd, (lines, _s, node, trailing) => {
      if (lines.starts.length === 0) return trailing === undefined ? node : withComments(node, undefined, undefined, trailing);
      rememberDetached(lines, true);
      const start = docStart(lines);
      return withComments(node, docComment(source, lines, start), commentGroups(source, lines, start), trailing);
    });

  /** `{`, items one per line, `}`. Also accepts `{}` on the header line. */
  const block = <T extends Documented>(itemParser: P.Parser<T>): P.Parser<BlockContents<T>> =>
    P.seq(hspace, token('{')).then(
      P.alt(
        P.seq(hspace, token('}')).map((): BlockContents<T> => ({ items: [] })),
        P.seqMap(lineEnd, item(itemParser).many(), gap, hspace, token('}'), (header, items, lines): BlockContents<T> => {
          rememberDetached(lines, false);
          const end = commentGroups(source, lines, lines.starts.length);
          if (header === undefined && end === undefined) return { items };
          const comments: Comments = {};
          if (header !== undefined) comments.header = header;
          if (end !== undefined) comments.end = end;
          return { items, comments };
        }),
      ),
    );

  // The name of the block being parsed, for "expected '}' to close struct Cart (line 2)" messages.
  let currentBlock = '';
  let currentBlockName: { kind: string; name: Name } | undefined;
  const blockName = () => currentBlock;
  /** The block such a message names, by its label: the place "(line 2)" refers to. */
  const blockNamedBy = new Map<string, { kind: string; name: Name }>();
  /** A block's header was read up to its name: parsing is now in that block. */
  const enterBlock = (kind: BlockKind, name: Name) => {
    currentBlock = `${kind} ${name.text} (line ${name.span.start.line})`;
    currentBlockName = { kind, name };
    // Only spaces or tabs, at least one, stand between the keyword and the name.
    const start = source.lastIndexOf(kind, name.span.start.offset - kind.length - 1);
    tree.opened(kind, start, name.span.end.offset, name);
  };

  const enumValue: P.Parser<EnumValue> = spanned(declaredName('an enum value', blockName)).map(([name, span]) =>
    read({
      name,
      span,
    }),
  );

  const enumDecl: P.Parser<EnumDecl> = spanned(
    P.seq(
      keyword('enum', DECLARATION_LABEL),
      hspace,
      declaredName('an enum name').map((name) => (enterBlock('enum', name), name)),
      block(enumValue),
    ),
  ).map(([[, , name, body], span]): EnumDecl => completed({ kind: 'enum', name, values: body.items, span, ...blockComments(body) }));

  const field: P.Parser<Field> = spanned(
    P.seq(declaredName('a field name', blockName), hspace, typeRef(TYPE_LABEL), hspace, attributeList.atMost(1)),
  ).map(([[name, , type, , list], span]) => read(withAttributes({ name, type, optional: false, span }, list[0])));

  const structDecl: P.Parser<StructDecl> = spanned(
    P.seq(
      keyword('struct', DECLARATION_LABEL),
      hspace,
      declaredName('a struct name').map((name) => (enterBlock('struct', name), name)),
      P.seq(hspace, keyword('extends'), hspace)
        .then(referencedName('the name of the struct to extend').map((parent) => (tree.parentRead(parent), parent)))
        .atMost(1),
      block(field),
    ),
  ).map(
    ([[, , name, parent, body], span]): StructDecl =>
      completed(
        parent.length > 0
          ? { kind: 'struct', name, extends: parent[0], fields: body.items, span, ...blockComments(body) }
          : { kind: 'struct', name, fields: body.items, span, ...blockComments(body) },
      ),
  );

  /** `name=value` in a union's attribute list; the checker judges the name (an unknown one is located there). */
  const unionAttribute: P.Parser<UnionAttribute> = spanned(
    P.seq(
      spanned(P.regexp(/[A-Za-z][A-Za-z0-9_]*/).desc('an attribute such as discriminator=kind')),
      hspace,
      token('='),
      hspace,
      // Any value is read here; the checker says what each attribute takes.
      spanned(P.regexp(/[^\s,\]]+/).desc('a value')),
    ),
  ).map(([[[name, nameSpan], , , , [value, valueSpan]], span]) => ({
    name: { text: name, span: nameSpan },
    value: { text: value, span: valueSpan },
    span,
  }));
  const unionAttributes = P.seq(hspace, token('['), hspace)
    .then(P.sepBy1(unionAttribute, P.seq(hspace, token(','), hspace)))
    .skip(P.seq(hspace, token(']')));

  const unionVariant: P.Parser<UnionVariant> = spanned(
    P.seq(declaredName('a variant tag', blockName), hspace, referencedName('the name of a struct')),
  ).map(([[tag, , type], span]) => ({ tag, type, span }));

  // `union` is a word only where a declaration starts: fields and types may still be named `union`.
  const unionDecl: P.Parser<UnionDecl> = spanned(
    P.seq(
      keyword('union', DECLARATION_LABEL),
      hspace,
      declaredName('a union name').map((name) => {
        currentBlock = `union ${name.text} (line ${name.span.start.line})`;
        currentBlockName = { kind: 'union', name };
        return name;
      }),
      unionAttributes.atMost(1),
      block(unionVariant),
    ),
  ).map(([[, , name, attributes, body], span]): UnionDecl => {
    const union: UnionDecl = { kind: 'union', name, variants: body.items, span, ...blockComments(body) };
    if (attributes.length > 0) union.attributes = attributes[0];
    return completed(union);
  });

  /** A double-quoted text (`what`: "message", "path"); `\"` and `\\` are the only escapes. */
  const quotedText = (label: string, what: string) =>
    P<string>((input, i) => {
      if (input[i] !== '"') return P.makeFailure(i, label);
      // The text is copied run by run (between escapes) and joined once: a string built by `+=`
      // one character at a time takes tens of bytes per character until it is flattened.
      const parts: string[] = [];
      let run = i + 1;
      for (let j = i + 1; j < input.length; j++) {
        const c = input[j];
        if (c === '"') {
          parts.push(input.slice(run, j));
          return P.makeSuccess(j + 1, parts.join(''));
        }
        if (c === '\r' && isLoneCarriageReturn(input, j)) return P.makeFailure(j, SPECIFIC + LONE_CARRIAGE_RETURN);
        if (c === '\n' || c === '\r') break;
        if (c === '\\') {
          const next = input[j + 1];
          if (next !== '"' && next !== '\\') {
            return P.makeFailure(j, `${SPECIFIC}unknown escape in a ${what}: only \\" and \\\\ are allowed`);
          }
          if (j > run) parts.push(input.slice(run, j));
          parts.push(next);
          j++;
          run = j + 1;
        }
      }
      return P.makeFailure(i, `${SPECIFIC}the ${what} has no closing quote (")`);
    });
  const quotedMessage = quotedText('a quoted message such as "cart does not exist"', 'message');

  const errorDecl: P.Parser<ErrorDecl> = spanned(
    P.seq(
      spanned(P.regexp(/-?[0-9]+/).desc('an error code (an integer)')),
      hspace,
      declaredName('an error name', blockName),
      hspace,
      quotedMessage,
    ),
  ).map(([[[code, codeSpan], , name, , message], span]) =>
    read({
      code: Number(code),
      codeSpan,
      name,
      message,
      span,
    }),
  );

  const errorsBlock: P.Parser<ErrorsBlock> = spanned(
    P.seq(
      // biome-ignore lint/suspicious/useIterableCallbackReturn: Parsimmon's map, run for its effect on the parser state
      spanned(keyword('errors', DECLARATION_LABEL)).map(([, span]) => {
        currentBlock = 'errors block';
        currentBlockName = undefined;
        tree.opened('errors', span.start.offset, span.end.offset);
      }),
      block(errorDecl),
    ),
  ).map(([[, body], span]): ErrorsBlock => completed({ kind: 'errors', errors: body.items, span, ...blockComments(body) }));

  const parameter: P.Parser<Parameter> = spanned(
    P.seq(declaredName('a parameter name'), hspace, typeRef(TYPE_LABEL), hspace, attributeList.atMost(1)),
  ).map(([[name, , type, , list], span]) => {
    const parameter: Parameter = { name, type, span };
    if (list.length === 0) return parameter;
    const { optional, attributes } = withAttributes({ optional: false }, list[0]);
    if (optional) parameter.optional = true;
    if (attributes) parameter.attributes = attributes;
    return parameter;
  });

  const comma = P.seq(parenSpace, token(','), parenSpace);

  const raises = P.seq(hspace, keyword('raises'), hspace, token('('), parenSpace)
    .then(P.sepBy1(referencedName('the name of a declared error'), comma))
    .skip(P.seq(parenSpace, token(')')));

  /**
   * Whitespace inside a parameter list, which may hold `//` comments to the end of a line. Written
   * by hand because it runs between every two tokens of a signature.
   */
  const parenGap = P<readonly ParenComment[]>((input, i) => {
    let comments: ParenComment[] | undefined;
    let ownLine = false;
    let j = i;
    for (;;) {
      const c = input.charCodeAt(j);
      if (c === 32 || c === 9 || (c === 13 && input.charCodeAt(j + 1) === 10)) j++;
      else if (c === 10) {
        ownLine = true;
        j++;
      } else if (c === 47 && input.charCodeAt(j + 1) === 47) {
        let end = j + 2;
        while (end < input.length && input.charCodeAt(end) !== 10 && input.charCodeAt(end) !== 13) end++;
        (comments ??= []).push({ text: commentText(input.slice(j, end)), ownLine });
        j = end;
      } else break;
    }
    return P.makeSuccess(j, comments ?? NO_PAREN_COMMENTS);
  });

  /** `(`, parameters separated by commas, `)`, with the comments between them placed. */
  const parameterList = P.seqMap(
    token('('),
    parenGap,
    P.alt(
      P.seqMap(parameter, parenGap, P.seq(token(','), parenGap, parameter, parenGap).many(), (firstParameter, afterFirst, rest) => {
        const parameters = [firstParameter];
        // gaps[k]: the comments between parameter k - 1 and parameter k (or `)`).
        const gaps = [afterFirst];
        for (const [, afterComma, next, after] of rest) {
          parameters.push(next);
          const last = gaps.length - 1;
          if (afterComma !== NO_PAREN_COMMENTS) gaps[last] = gaps[last].concat(afterComma);
          gaps.push(after);
        }
        return { parameters, gaps };
      }),
      // A fresh value per method: a shared empty array could leak edits from one tree to another.
      P((_input, i) => P.makeSuccess(i, { parameters: [] as Parameter[], gaps: [] as (readonly ParenComment[])[] })),
    ),
    token(')'),
    (_open, beforeFirst, { parameters, gaps }) => {
      // No comment at all is by far the common case: skip the placement work.
      if (beforeFirst === NO_PAREN_COMMENTS && gaps.every((gap) => gap === NO_PAREN_COMMENTS)) return { parameters };
      return placeParameterComments(parameters, [beforeFirst, ...gaps]);
    },
  );

  /**
   * The return of a method: `stream T` (a stream of T) or a plain type. `stream` is a contextual
   * word, never reserved: when no type follows it (`f() stream`, `f() stream [optional]`) it is the
   * name of the returned type, so the plain alternative reads it again.
   */
  const methodReturn: P.Parser<{ stream?: SourceSpan; type: TypeRef }> = P.alt(
    P.seqMap(spanned(keyword('stream', RETURN_TYPE_LABEL)), hspace, typeRef(RETURN_TYPE_LABEL), ([, stream], _s, type) => ({
      stream,
      type,
    })),
    typeRef(RETURN_TYPE_LABEL).map((type) => ({ type })),
  );

  const method: P.Parser<Method> = spanned(
    P.seq(
      declaredName('a method name', blockName).skip(hspace),
      parameterList.skip(hspace),
      methodReturn.skip(hspace),
      attributeList.atMost(1),
      raises.atMost(1),
    ),
  ).map(([[name, list, returned, returnList, raised], span]): Method => {
    const attributes = withAttributes({ optional: false }, returnList[0]);
    const result: Method = {
      name,
      parameters: list.parameters,
      returnType: returned.type,
      returnOptional: attributes.optional,
      raises: raised[0] ?? [],
      span,
    };
    if (returned.stream) result.stream = returned.stream;
    if (attributes.attributes) result.returnAttributes = attributes.attributes;
    if (list.end !== undefined) result.comments = { end: [list.end] };
    return read(result);
  });

  const interfaceDecl: P.Parser<InterfaceDecl> = spanned(
    P.seq(
      keyword('interface', DECLARATION_LABEL),
      hspace,
      declaredName('an interface name').map((name) => (enterBlock('interface', name), name)),
      block(method),
    ),
  ).map(
    ([[, , name, body], span]): InterfaceDecl =>
      completed({
        kind: 'interface',
        name,
        methods: body.items,
        span,
        ...blockComments(body),
      }),
  );

  const namespaceDecl: P.Parser<NamespaceDecl> = spanned(
    P.seq(keyword('namespace', DECLARATION_LABEL), hspace, declaredName('a namespace name')),
  ).map(([[, , name], span]): NamespaceDecl => {
    const namespace: NamespaceDecl = { kind: 'namespace', name, span };
    tree.namespaceRead(namespace);
    return namespace;
  });

  const importDecl: P.Parser<ImportDecl> = spanned(
    P.seq(keyword('import', DECLARATION_LABEL), hspace, spanned(quotedText('a quoted path such as "common.idl"', 'path'))),
  ).map(([[, , [path, pathSpan]], span]): ImportDecl => {
    const declaration: ImportDecl = { kind: 'import', path, pathSpan, span };
    tree.importRead(declaration);
    return declaration;
  });

  const misplacedNamespace = P.seq(gap, hspace, P.lookahead(keyword('namespace', DECLARATION_LABEL))).then(
    failWith('the namespace must be declared once, before every other declaration'),
  );

  const declaration: P.Parser<Declaration> = P.alt<Declaration>(enumDecl, structDecl, unionDecl, errorsBlock, interfaceDecl);

  // Imports may stand anywhere at top level (the family's rule); they are kept apart from the declarations.
  const declarations = P.alt<Declaration | ImportDecl>(item(declaration), item(importDecl), misplacedNamespace)
    .many()
    .map((items) => items.filter((entry): entry is Declaration => entry.kind !== 'import'));
  const file: P.Parser<IdlFile> = P.seqMap(
    item(importDecl).many(),
    item(namespaceDecl).atMost(1),
    declarations,
    gap,
    hspace,
    P.eof.desc(NOISE + 'eof'),
    (_imports, namespace, declarations, lines) => {
      rememberDetached(lines, false);
      const result: IdlFile = { fileName, source, declarations };
      const imports = tree.imports();
      if (imports.length > 0) result.imports = imports;
      const end = commentGroups(source, lines, lines.starts.length);
      if (end !== undefined) result.comments = { end };
      if (namespace.length > 0) result.namespace = namespace[0];
      if (detached.length > 0) defineDetachedComments(result, source, detached, spanOf);
      return result;
    },
  );

  /** The comment lines and blanks after the last declaration, to the end of the file: the file's end comments. */
  const endOfFile = P.seqMap(gap, hspace, P.eof, (lines) => commentGroups(source, lines, lines.starts.length));

  // Recovery after a syntax error: these parse the rest of the file from a resume point. Their
  // values are never used: what they read goes into `tree`, and their failures are the errors.
  const fileEnd = P.seq(gap, hspace, P.eof.desc(NOISE + 'eof'));
  const itemParsers: Record<BlockKind, P.Parser<Documented>> = {
    enum: enumValue,
    struct: field,
    errors: errorDecl,
    interface: method,
  };
  /** The rest of the file from the start of a line, at top level. */
  const restOfFile = (allowNamespace: boolean): P.Parser<unknown> =>
    P.seq(item(importDecl).many(), allowNamespace ? item(namespaceDecl).atMost(1) : P.succeed([]), declarations, fileEnd);
  /** The rest of the file from the start of an item line inside `block`. */
  const restOfBlock = (block: OpenBlock): P.Parser<unknown> => {
    currentBlock = block.label;
    currentBlockName = block.name && {
      kind: block.kind,
      name: { text: block.name.text, span: spanOf(block.name.offset, block.name.offset + block.name.text.length) },
    };
    const closingBrace = spanned(token('}')).map(([, span]) => tree.blockClosed(span.end.offset));
    return P.seq(item(itemParsers[block.kind]).many(), gap, hspace, closingBrace, lineEnd, declarations, fileEnd);
  };

  return { file, declarationItem: item(declaration), endOfFile, restOfFile, restOfBlock, tree, blockNamedBy, positionOf };
}
