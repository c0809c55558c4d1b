/**
 * Small helpers for printing JavaScript/TypeScript source text: string literals, doc comments and
 * indentation. Generated code is printed as strings (TypeScript 7 has no compiler API to build on).
 */

/** A single-quoted JavaScript string literal for any text (quotes, backslashes, newlines escaped). */
export function stringLiteral(text: string): string {
  const json = JSON.stringify(text).slice(1, -1);
  // JSON escapes `"` (not needed inside single quotes) and leaves `'` alone (needed).
  const body = json.replace(/\\(.)/g, (escape, char: string) => (char === '"' ? '"' : escape)).replace(/'/g, "\\'");
  return `'${body}'`;
}

/**
 * A TSDoc block for `text` (IDL comment lines joined by `\n`) plus extra tag lines, indented by
 * `indent`; empty when there is nothing to say. `*\/` in the text cannot end the comment early.
 */
export function docComment(text: string | undefined, indent = '', tags: readonly string[] = []): string {
  const lines = [...(text === undefined || text === '' ? [] : text.split('\n')), ...tags].map(escapeCommentText);
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`;
}

function escapeCommentText(line: string): string {
  return line.replace(/\*\//g, '*\\/').trimEnd();
}

/** Indents every non-empty line of `text` by `indent`. */
export function indent(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n');
}

/** `name` as a property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name);
}

/** Longest literal printed on one line by `valueLiteral`. */
const INLINE_WIDTH = 80;

/**
 * A JSON-like value as a JavaScript literal that reads like hand-written code: identifier keys bare,
 * single-quoted strings, small objects and arrays on one line, larger ones one entry per line with
 * trailing commas. `pad` is the indentation of the line the literal starts on.
 */
export function valueLiteral(value: unknown, pad = ''): string {
  const inline = inlineLiteral(value);
  if (inline.length <= INLINE_WIDTH || value === null || typeof value !== 'object') return inline;
  const inner = `${pad}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${valueLiteral(item, inner)},\n`).join('')}${pad}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([key, v]) => `${inner}${propertyKey(key)}: ${valueLiteral(v, inner)},\n`).join('')}${pad}}`;
}

function inlineLiteral(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([key, v]) => `${propertyKey(key)}: ${inlineLiteral(v)}`).join(', ')} }`;
}
