/**
 * Small helpers for printing JavaScript/TypeScript source text: string literals, doc comments and
 * indentation. Generated code is printed as strings (TypeScript 7 has no compiler API to build on).
 */
import { docDescription, docTags } from '../idl/doc-tags.js';

/**
 * Characters `stringLiteral` escapes: quotes, backslash, control characters (among them the three
 * that mark source anchors, source-anchor.ts), the line and paragraph separators, and any surrogate
 * (JSON escapes lone ones).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be escaped
const NEEDS_ESCAPE = /['"\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/**
 * A single-quoted JavaScript string literal for any text (quotes, backslashes, line breaks escaped).
 * Every string built from user text (names, messages, comments, file names, import paths) goes into
 * generated code through this function or `commentText`.
 */
export function stringLiteral(text: string): string {
  // Most names and messages need no escape at all (the IDL JSON embeds thousands of them).
  if (!NEEDS_ESCAPE.test(text)) return `'${text}'`;
  const json = JSON.stringify(text).slice(1, -1);
  // JSON escapes `"` (not needed inside single quotes) and leaves `'` alone (needed). U+2028 and
  // U+2029 are allowed in string literals since ES2019, but not by older parsers: escaped too (the
  // same string either way). JSON escapes control characters, the anchor markers among them.
  const body = json
    .replace(/\\(.)/g, (sequence, char: string) => (char === '"' ? '"' : sequence))
    .replace(/'/g, "\\'")
    .replace(/[\u2028\u2029]/g, unicodeEscape);
  return `'${body}'`;
}

/** `\uXXXX` for one UTF-16 unit. */
function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * What would end a comment early (`*\/` ends a block comment, a line terminator a line comment),
 * and the anchor markers, which must not appear raw in printed text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the anchor markers are control characters
const COMMENT_ENDS = /\*\/|\r|\n|\u2028|\u2029|[\u0001-\u0003]/g;
const COMMENT_ESCAPES: Record<string, string> = { '*/': '*\\/', '\r': '\\r', '\n': '\\n' };

/**
 * `text` made safe inside any comment, `//` or `/* *\/`: `*\/` is written `*\\/`, and line
 * terminators (CR, LF, U+2028, U+2029) as the escapes `\r`, `\n`, `\u2028`, `\u2029`, so no text can
 * end the comment and run as code; the anchor markers are written as escapes too. Every user text
 * printed into a comment goes through it.
 */
export function commentText(text: string): string {
  return text.replace(COMMENT_ENDS, (end) => COMMENT_ESCAPES[end] ?? unicodeEscape(end));
}

/**
 * A TSDoc block for `text` (IDL comment lines joined by `\n`) plus extra tag lines, indented by
 * `indent`; empty when there is nothing to say. Nothing in the text can end the comment early
 * (see `commentText`).
 */
export function docComment(text: string | undefined, indent = '', tags: readonly string[] = []): string {
  const lines = [...(text === undefined || text === '' ? [] : text.split('\n')), ...tags].map((line) => commentText(line).trimEnd());
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`;
}

/**
 * The TSDoc block of an IDL item: its description (the doc comment without tag lines), then `extra`
 * lines (e.g. `@throws`) and `@deprecated <why>` when the item is deprecated, after a blank line.
 * Without tags this is `docComment(comment, indent, extra)` with that blank line, as it always was.
 */
export function itemDocComment(comment: string | undefined, indent = '', extra: readonly string[] = []): string {
  const description = docDescription(comment);
  const tags = [...extra, ...deprecatedTsDoc(comment)];
  return docComment(description, indent, tags.length > 0 && description ? ['', ...tags] : tags);
}

/** The TSDoc block of an interface or error: its description, a generated summary, and `@deprecated` when it is. */
export function withSummary(comment: string | undefined, summary: string): string {
  const description = docDescription(comment);
  const deprecated = deprecatedTsDoc(comment);
  return docComment(description ? `${description}\n\n${summary}` : summary, '', deprecated.length > 0 ? ['', ...deprecated] : []);
}

/** `@deprecated <why>` as a TSDoc line when the IDL doc comment says `@deprecated` (editors strike the name through). */
export function deprecatedTsDoc(comment: string | undefined): string[] {
  const reason = docTags(comment).deprecated;
  return reason === undefined ? [] : [reason === '' ? '@deprecated' : `@deprecated ${reason}`];
}

/** Indents every non-empty line of `text` by `indent`. */
export function indent(text: string, indent: string): string {
  // A scan, not split/map/join: generation indents every function body it prints.
  let indented = '';
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    if (end !== start && start !== text.length) indented += indent;
    if (end === -1) return indented + text.slice(start);
    indented += text.slice(start, end + 1);
    start = end + 1;
  }
}

/** `name` as a property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name);
}

/** Longest value printed on one line by `jsonParseExpression`. */
const INLINE_WIDTH = 80;

/**
 * A JSON value as `JSON.parse(`<its text>`)`, laid out to read like hand-written code: small objects
 * and arrays on one line, larger ones one entry per line. Used for large values (the IDL JSON): the
 * checker gives the call its declared type at once, where an object literal would make it reduce the
 * union of every array's element types pair by pair (TS2590, "union type that is too complex", for
 * the IDL JSON of about a thousand structs of different shapes); engines also parse JSON faster than
 * literals. Nothing in a string can end the template: backslashes, backticks and `${` are escaped,
 * and the line separators are written as JSON escapes (JSON escapes control characters, the anchor
 * markers of source-anchor.ts among them).
 */
export function jsonParseExpression(value: unknown, kept?: KeptJsonTexts): string {
  return `JSON.parse(\`${jsonText(value, '', kept).replace(TEMPLATE_ESCAPE, templateEscape)}\`)`;
}

/**
 * The text `jsonParseExpression` wrote for each element of the value's top-level arrays (the IDL
 * JSON's declarations), by object: a value whose unchanged elements are the objects of an earlier
 * one (interned-idl-json.ts) writes only the others.
 */
export type KeptJsonTexts = WeakMap<object, string>;

/** The indentation of the elements of a top-level array: those whose text is kept. */
const KEPT_PAD = '    ';

const TEMPLATE_ESCAPE = /[\\`\u2028\u2029]|\$\{/g;

function templateEscape(text: string): string {
  if (text === '\\' || text === '`' || text === '${') return `\\${text}`;
  // Only inside JSON strings: a JSON escape, its backslash escaped for the template.
  return `\\${unicodeEscape(text)}`;
}

/**
 * `value` as JSON text: on one line as `JSON.stringify(value)` writes it when that fits in
 * INLINE_WIDTH columns, else one entry per line as `JSON.stringify(value, null, 2)` does; `pad` is
 * the indentation of the line it starts on.
 */
function jsonText(value: unknown, pad: string, kept?: KeptJsonTexts): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (kept === undefined) return layOut(JSON.stringify(value), pad);
  if (pad === KEPT_PAD) {
    let text = kept.get(value);
    if (text === undefined) kept.set(value, (text = layOut(JSON.stringify(value), pad)));
    return text;
  }
  // Above the kept elements (the value and its arrays): laid out from the entries' texts, so that
  // the kept ones are not written again. A value goes on one line when all its entries did and the
  // line fits.
  const inner = `${pad}  `;
  const isArray = Array.isArray(value);
  const keys = isArray ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  const entries: { key: string; text: string }[] = [];
  let oneLine = true;
  for (let i = 0; i < count; i++) {
    const item = keys ? (value as Record<string, unknown>)[keys[i]] : (value as unknown[])[i];
    if (keys && item === undefined) continue;
    const text = jsonText(item, inner, kept);
    // A one-line entry is at most INLINE_WIDTH long and has no line break (JSON escapes those in strings).
    if (oneLine && (text.length > INLINE_WIDTH || text.includes('\n'))) oneLine = false;
    entries.push({ key: keys ? JSON.stringify(keys[i]) : '', text });
  }
  const entry = (separator: string) => (e: { key: string; text: string }) => (keys ? `${e.key}${separator}${e.text}` : e.text);
  if (oneLine) {
    const line = entries.map(entry(':')).join(',');
    if (line.length + 2 <= INLINE_WIDTH) return isArray ? `[${line}]` : `{${line}}`;
  }
  const lines = entries.map((e) => `${inner}${entry(': ')(e)}`).join(',\n');
  return isArray ? `[\n${lines}\n${pad}]` : `{\n${lines}\n${pad}}`;
}

/**
 * `compact` (the text `JSON.stringify` writes for an object or array) laid out as `jsonText` says,
 * starting on a line indented by `pad`. Read from the engine's own text rather than written from the
 * value entry by entry, which copied each nested text once more at every level above it (8% of the
 * time generating GitHub's IDL took, an eighth of what it allocated). Every object and array whose
 * text fits on one line is a slice of `compact`: only the lines around them are built.
 */
function layOut(compact: string, pad: string): string {
  const out: string[] = [];
  writeLaidOut(compact, 0, pad, out);
  return out.join('');
}

/** Writes the value starting at `start` of `compact` to `out`; returns the offset after it. */
function writeLaidOut(compact: string, start: number, pad: string, out: string[]): number {
  const first = compact.charCodeAt(start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    const end = primitiveEnd(compact, start);
    out.push(compact.slice(start, end));
    return end;
  }
  const fits = closingWithin(compact, start, start + INLINE_WIDTH);
  if (fits !== -1) {
    out.push(compact.slice(start, fits + 1));
    return fits + 1;
  }
  // Too long for one line, so not empty: one entry per line.
  const inner = `${pad}  `;
  const separator = `,\n${inner}`;
  out.push(first === OPEN_BRACE ? '{\n' : '[\n', inner);
  let at = start + 1;
  for (let entry = 0; ; entry++) {
    if (entry > 0) out.push(separator);
    if (first === OPEN_BRACE) {
      const keyEnd = stringEnd(compact, at);
      out.push(compact.slice(at, keyEnd), ': ');
      at = keyEnd + 1; // after the colon
    }
    at = writeLaidOut(compact, at, inner, out);
    // `at` is now at the comma before the next entry or at the closing bracket.
    if (compact.charCodeAt(at) !== COMMA) break;
    at++;
  }
  out.push(`\n${pad}`, first === OPEN_BRACE ? '}' : ']');
  return at + 1;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The offset of the bracket closing the object or array opening at `start`, when it is before
 * `limit` (its text then fits in `limit - start` characters); -1 otherwise, found without reading
 * past `limit`.
 */
function closingWithin(compact: string, start: number, limit: number): number {
  let depth = 0;
  for (let i = start; i < limit && i < compact.length; i++) {
    const code = compact.charCodeAt(i);
    if (code === QUOTE) i = stringEnd(compact, i) - 1;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return i;
  }
  return -1;
}

/** The offset after the JSON string starting at `start` (its opening quote). */
function stringEnd(compact: string, start: number): number {
  let quote = compact.indexOf('"', start + 1);
  // A quote preceded by an odd number of backslashes is escaped.
  for (;;) {
    let backslashes = 0;
    while (compact.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = compact.indexOf('"', quote + 1);
  }
}

/** The offset after the string, number, boolean or null starting at `start`. */
function primitiveEnd(compact: string, start: number): number {
  if (compact.charCodeAt(start) === QUOTE) return stringEnd(compact, start);
  let end = start + 1;
  for (; end < compact.length; end++) {
    const code = compact.charCodeAt(end);
    if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET) break;
  }
  return end;
}
