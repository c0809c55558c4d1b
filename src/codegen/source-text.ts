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
