/**
 * The IDL parser: text in, syntax tree out. This is the only file that knows about Parsimmon.
 *
 * The IDL is line-oriented: a declaration header ends its line, and every enum value, struct field,
 * error and method takes exactly one line. `//` comment lines directly above an item (no blank line
 * between) become its doc comment; every other comment is ignored.
 *
 * Syntax errors name what was expected in plain words. Parsimmon reports the furthest position it
 * reached together with the labels (`.desc`) of every rule that failed there; `describeFailure`
 * turns those labels into one sentence. A label that starts with SPECIFIC is already a whole
 * message (for example a reserved word used as a name) and wins over the others.
 */
import P from 'parsimmon';
import type {
  BuiltInTypeName,
  Declaration,
  EnumDecl,
  EnumValue,
  ErrorDecl,
  ErrorsBlock,
  Field,
  IdlFile,
  InterfaceDecl,
  Method,
  Name,
  NamespaceDecl,
  Parameter,
  SourcePosition,
  SourceSpan,
  StructDecl,
  TypeRef,
} from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { IdlSyntaxError } from './errors.js';
import { RESERVED_WORDS } from './names.js';

export { RESERVED_WORDS, IDENTIFIER_PATTERN } from './names.js';

/**
 * A declaration header (`struct Cart {`, `errors {`, ...) at the start of `line`: inside a block it
 * means the block's `}` is missing, which deserves a better message than "reserved word".
 */
const DECLARATION_HEADER =
  /^(?:(?:struct|enum|interface)[ \t]+[A-Za-z][A-Za-z0-9_]*(?:[ \t]+extends[ \t]+[A-Za-z][A-Za-z0-9_]*)?[ \t]*\{|errors[ \t]*\{|namespace[ \t]+[A-Za-z][A-Za-z0-9_]*[ \t]*(?:\/\/.*)?\r?$)/;

const IDENTIFIER_AT = /[A-Za-z][A-Za-z0-9_]*/y;

/** The identifier starting at offset `i`, if there is one. */
function identifierAt(input: string, i: number): string | undefined {
  IDENTIFIER_AT.lastIndex = i;
  return IDENTIFIER_AT.exec(input)?.[0];
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
const RETURN_TYPE_LABEL =
  'a return type such as string, int, float, bool, []T, map[string]T or a struct or enum name';
const DECLARATION_LABEL = 'a declaration (namespace, enum, struct, errors or interface)';
const END_OF_LINE = 'the end of the line';

/** Labels in the order they read best in "expected A, B or C"; unlisted labels go in the middle. */
const LABEL_ORDER = [
  TYPE_LABEL,
  RETURN_TYPE_LABEL,
  DECLARATION_LABEL,
  "','",
  "')'",
  "'}'",
  "'[optional]'",
  "'raises'",
  END_OF_LINE,
];

/**
 * Parses IDL source text into a syntax tree. A leading byte order mark is dropped, so offsets,
 * lines and columns (1-based, UTF-16 units) refer to the text after it.
 *
 * @throws IdlSyntaxError with a diagnostic at the first syntax error.
 */
export function parseIdl(text: string, fileName: string): IdlFile {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const tooDeep = TOO_DEEP_TYPE.exec(source);
  if (tooDeep) {
    const position = createPositionLookup(source)(tooDeep.index);
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'syntax',
      message: `this type is nested more than ${MAX_TYPE_DEPTH} levels deep`,
      file: fileName,
      line: position.line,
      column: position.column,
      length: 2,
    };
    throw new IdlSyntaxError(diagnostic, source);
  }
  const grammar = createGrammar(fileName, source);
  const reply = runParser(grammar.file, source);
  if (reply.status) return reply.value;
  const diagnostic = syntaxDiagnostic(fileName, source, reply.furthest, reply.expected);
  throw new IdlSyntaxError(diagnostic, source);
}

/** Deeper types would overflow the parser's stack; no real contract comes near this. */
const MAX_TYPE_DEPTH = 100;
const TOO_DEEP_TYPE = new RegExp(`(?:\\[\\][ \\t]*|map[ \\t]*\\[[ \\t]*string[ \\t]*\\][ \\t]*){${MAX_TYPE_DEPTH + 1}}`);

// Parsimmon's own `parse()` caches line/column tables keyed by the whole input string in a
// module-level object that is never cleared (a leak in a long-running dev server), so we call the
// parser function directly and compute positions ourselves.
type RawReply<T> = { status: true; value: T } | { status: false; furthest: number; expected: string[] };
function runParser<T>(parser: P.Parser<T>, input: string): RawReply<T> {
  const run = (parser as unknown as { _: (input: string, i: number) => P.Reply<T> & { furthest: number } })._;
  const reply = run.call(parser, input, 0);
  if (reply.status) return { status: true, value: reply.value };
  return { status: false, furthest: reply.furthest, expected: reply.expected };
}

/** Maps 0-based offsets to 1-based line/column positions. */
export function createPositionLookup(source: string): (offset: number) => SourcePosition {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
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

function syntaxDiagnostic(fileName: string, source: string, offset: number, expected: string[]): Diagnostic {
  const position = createPositionLookup(source)(offset);
  const found = /^(?:\[optional\]|[A-Za-z0-9_]+|[^\s])/.exec(source.slice(offset, offset + 200));
  return {
    severity: 'error',
    code: 'syntax',
    message: describeFailure(expected, offset >= source.length),
    file: fileName,
    line: position.line,
    column: position.column,
    length: found ? found[0].length : 1,
  };
}

/** One sentence from Parsimmon's expectation labels. */
function describeFailure(expected: string[], atEndOfFile: boolean): string {
  const specific = expected.find((label) => label.startsWith(SPECIFIC));
  if (specific) return specific.slice(SPECIFIC.length);
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

/** A gap line: blank, or a comment on its own line. */
type GapLine = { comment?: string; span: SourceSpan };

/** The comment of `// text`: without the slashes, one following space and trailing whitespace. */
function commentText(raw: string): string {
  return raw.replace(/^\/\/ ?/, '').replace(/\s+$/, '');
}

/** The doc comment in a gap: the comment lines after the last blank line. */
function docComment(lines: GapLine[]): string | undefined {
  let start = lines.length;
  while (start > 0 && lines[start - 1].comment !== undefined) start--;
  if (start === lines.length) return undefined;
  return lines
    .slice(start)
    .map((line) => line.comment)
    .join('\n');
}

function withComment<T extends object>(node: T, comment: string | undefined): T {
  return comment === undefined ? node : { ...node, comment };
}

function createGrammar(fileName: string, source: string) {
  const positionOf = createPositionLookup(source);
  const spanOf = (start: number, end: number): SourceSpan => ({
    file: fileName,
    start: positionOf(start),
    end: positionOf(end),
  });

  /** The current offset, consuming nothing. */
  const offset = P((_input, i) => P.makeSuccess(i, i));
  /** Runs `parser` and returns its value together with the span it consumed. */
  const spanned = <T>(parser: P.Parser<T>): P.Parser<[T, SourceSpan]> =>
    P.seqMap(offset, parser, offset, (start, value, end) => [value, spanOf(start, end)]);
  /** Fails at the current position with a complete message. */
  const failWith = (message: string) => P<never>((_input, i) => P.makeFailure(i, SPECIFIC + message));

  const hspace = P.regexp(/[ \t]*/);
  /** Whitespace inside parentheses, where a signature may be spread out. */
  const parenSpace = P.regexp(/[ \t\r\n]*/);
  const trailingComment = P.regexp(/\/\/[^\r\n]*/).desc(NOISE + 'comment');
  const newline = P.regexp(/\r?\n/);
  /** End of an item's line: optional spaces and trailing comment, then a newline or the end of the file. */
  const lineEnd = P.seq(hspace, trailingComment.atMost(1), P.alt(newline.desc(END_OF_LINE), P.eof.desc(NOISE + 'eof')));

  const gapLine: P.Parser<GapLine> = P.alt(
    P.seqMap(
      hspace,
      spanned(P.regexp(/\/\/[^\r\n]*/).desc(NOISE + 'comment')),
      P.alt(newline, P.eof),
      (_s, [raw, span]) => ({ comment: commentText(raw), span }),
    ),
    P.seqMap(hspace, spanned(newline.desc(NOISE + 'blank line')), (_s, [, span]) => ({ span })),
  );
  /** Blank and comment lines between items. */
  const gap = gapLine.many();
  /** Comments the tree does not keep (not directly above an item), collected for the formatter. */
  const detached: { text: string; span: SourceSpan }[] = [];
  const rememberDetached = (lines: GapLine[], attached: boolean) => {
    let end = lines.length;
    if (attached) while (end > 0 && lines[end - 1].comment !== undefined) end--;
    for (const line of lines.slice(0, end)) {
      if (line.comment !== undefined) detached.push({ text: line.comment, span: line.span });
    }
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
        return P.makeFailure(i, `${SPECIFIC}expected '}' to close ${block()} before this '${text}'`);
      }
      if (RESERVED_WORDS.has(text)) {
        return P.makeFailure(i, `${SPECIFIC}'${text}' is a reserved word and cannot be used as a name`);
      }
      return P.makeSuccess(i + text.length, { text, span: spanOf(i, i + text.length) });
    });

  /** A name used as a reference (a type, a parent, a raised error). */
  const referencedName = (label: string) =>
    P<Name>((input, i) => {
      const text = identifierAt(input, i);
      if (text === undefined || RESERVED_WORDS.has(text)) return P.makeFailure(i, label);
      return P.makeSuccess(i + text.length, { text, span: spanOf(i, i + text.length) });
    });

  const typeRef = (label: string): P.Parser<TypeRef> =>
    P.alt(
      spanned(P.regexp(/(?:string|int|float|bool)(?![A-Za-z0-9_])/).desc(label)).map(
        ([name, span]): TypeRef => ({ kind: 'builtIn', name: name as BuiltInTypeName, span }),
      ),
      spanned(P.seq(P.string('[]').desc(label), P.lazy(() => typeRef(TYPE_LABEL)))).map(
        ([[, element], span]): TypeRef => ({ kind: 'array', element, span }),
      ),
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

  const optionalMarker = token('[optional]');

  /** An item line inside a block, with its doc comment. */
  const item = <T extends object>(parser: P.Parser<T>): P.Parser<T> =>
    P.seqMap(gap, hspace, parser, lineEnd, (lines, _s, node) => {
      rememberDetached(lines, true);
      return withComment(node, docComment(lines));
    });

  /** `{`, items one per line, `}`. Also accepts `{}` on the header line. */
  const block = <T extends object>(itemParser: P.Parser<T>): P.Parser<T[]> =>
    P.seq(hspace, token('{')).then(
      P.alt(
        P.seq(hspace, token('}')).result([] as T[]),
        P.seqMap(lineEnd, item(itemParser).many(), gap, hspace, token('}'), (_e, items, lines) => {
          rememberDetached(lines, false);
          return items;
        }),
      ),
    );

  // The name of the block being parsed, for "expected '}' to close struct Cart" messages.
  let currentBlock = '';
  const blockName = () => currentBlock;
  const enterBlock = (kind: string, name: Name) => {
    currentBlock = `${kind} ${name.text} (line ${name.span.start.line})`;
  };

  const enumValue: P.Parser<EnumValue> = spanned(declaredName('an enum value', blockName)).map(([name, span]) => ({
    name,
    span,
  }));

  const enumDecl: P.Parser<EnumDecl> = spanned(
    P.seq(
      keyword('enum', DECLARATION_LABEL),
      hspace,
      declaredName('an enum name').map((name) => (enterBlock('enum', name), name)),
      block(enumValue),
    ),
  ).map(([[, , name, values], span]) => ({ kind: 'enum', name, values, span }));

  const field: P.Parser<Field> = spanned(
    P.seq(declaredName('a field name', blockName), hspace, typeRef(TYPE_LABEL), hspace, optionalMarker.atMost(1)),
  ).map(([[name, , type, , marker], span]) => ({ name, type, optional: marker.length > 0, span }));

  const structDecl: P.Parser<StructDecl> = spanned(
    P.seq(
      keyword('struct', DECLARATION_LABEL),
      hspace,
      declaredName('a struct name').map((name) => (enterBlock('struct', name), name)),
      P.seq(hspace, keyword('extends'), hspace)
        .then(referencedName('the name of the struct to extend'))
        .atMost(1),
      block(field),
    ),
  ).map(([[, , name, parent, fields], span]): StructDecl =>
    parent.length > 0
      ? { kind: 'struct', name, extends: parent[0], fields, span }
      : { kind: 'struct', name, fields, span },
  );

  /** A double-quoted message; `\"` and `\\` are the only escapes. */
  const quotedMessage = P<string>((input, i) => {
    if (input[i] !== '"') return P.makeFailure(i, 'a quoted message such as "cart does not exist"');
    let text = '';
    for (let j = i + 1; j < input.length; j++) {
      const c = input[j];
      if (c === '"') return P.makeSuccess(j + 1, text);
      if (c === '\n' || c === '\r') break;
      if (c === '\\') {
        const next = input[j + 1];
        if (next !== '"' && next !== '\\') {
          return P.makeFailure(j, `${SPECIFIC}unknown escape in a message: only \\" and \\\\ are allowed`);
        }
        text += next;
        j++;
      } else {
        text += c;
      }
    }
    return P.makeFailure(i, `${SPECIFIC}the message has no closing quote (")`);
  });

  const errorDecl: P.Parser<ErrorDecl> = spanned(
    P.seq(
      spanned(P.regexp(/-?[0-9]+/).desc('an error code (an integer)')),
      hspace,
      declaredName('an error name', blockName),
      hspace,
      quotedMessage,
    ),
  ).map(([[[code, codeSpan], , name, , message], span]) => ({
    code: Number(code),
    codeSpan,
    name,
    message,
    span,
  }));

  const errorsBlock: P.Parser<ErrorsBlock> = spanned(
    P.seq(
      keyword('errors', DECLARATION_LABEL).map(() => {
        currentBlock = 'errors block';
      }),
      block(errorDecl),
    ),
  ).map(([[, errors], span]) => ({ kind: 'errors', errors, span }));

  /** Parameters cannot be optional; say so instead of a generic "expected ',' or ')'". */
  const notOptional = P<null>((input, i) =>
    input.startsWith('[optional]', i)
      ? P.makeFailure(
          i,
          `${SPECIFIC}parameters cannot be [optional]; use a struct parameter with an [optional] field instead`,
        )
      : P.makeSuccess(i, null),
  );

  const parameter: P.Parser<Parameter> = spanned(
    P.seq(declaredName('a parameter name'), hspace, typeRef(TYPE_LABEL), hspace, notOptional),
  ).map(([[name, , type], span]) => ({ name, type, span }));

  const comma = P.seq(parenSpace, token(','), parenSpace);

  const raises = P.seq(hspace, keyword('raises'), hspace, token('('), parenSpace)
    .then(P.sepBy1(referencedName('the name of a declared error'), comma))
    .skip(P.seq(parenSpace, token(')')));

  const parameterList = P.seq(token('('), parenSpace)
    .then(P.sepBy(parameter, comma))
    .skip(P.seq(parenSpace, token(')')));

  const method: P.Parser<Method> = spanned(
    P.seq(
      declaredName('a method name', blockName).skip(hspace),
      parameterList.skip(hspace),
      typeRef(RETURN_TYPE_LABEL).skip(hspace),
      optionalMarker.atMost(1),
      raises.atMost(1),
    ),
  ).map(([[name, parameters, returnType, marker, raised], span]) => ({
    name,
    parameters,
    returnType,
    returnOptional: marker.length > 0,
    raises: raised[0] ?? [],
    span,
  }));

  const interfaceDecl: P.Parser<InterfaceDecl> = spanned(
    P.seq(
      keyword('interface', DECLARATION_LABEL),
      hspace,
      declaredName('an interface name').map((name) => (enterBlock('interface', name), name)),
      block(method),
    ),
  ).map(([[, , name, methods], span]) => ({ kind: 'interface', name, methods, span }));

  const namespaceDecl: P.Parser<NamespaceDecl> = spanned(
    P.seq(keyword('namespace', DECLARATION_LABEL), hspace, declaredName('a namespace name')),
  ).map(([[, , name], span]) => ({ kind: 'namespace', name, span }));

  const misplacedNamespace = P.seq(gap, hspace, P.lookahead(keyword('namespace', DECLARATION_LABEL))).then(
    failWith('the namespace must be declared once, before every other declaration'),
  );

  const declaration: P.Parser<Declaration> = P.alt<Declaration>(enumDecl, structDecl, errorsBlock, interfaceDecl);

  const file: P.Parser<IdlFile> = P.seqMap(
    item(namespaceDecl).atMost(1),
    P.alt(item(declaration), misplacedNamespace).many(),
    gap,
    hspace,
    P.eof.desc(NOISE + 'eof'),
    (namespace, declarations, lines) => {
      rememberDetached(lines, false);
      const result: IdlFile = { fileName, source, declarations };
      if (namespace.length > 0) result.namespace = namespace[0];
      if (detached.length > 0) result.detachedComments = detached.sort((a, b) => a.span.start.offset - b.span.start.offset);
      return result;
    },
  );

  return { file };
}
