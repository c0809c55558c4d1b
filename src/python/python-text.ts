/**
 * Text inside generated Python: string literals, docstrings and `#` comments. Whatever an IDL file
 * holds (quotes, backslashes, line breaks, control characters) stays inside them.
 */

/** A Python string literal of `text` (JSON's escapes are Python's: `"a\"b\n"`). */
export function pyString(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029\u007f-\u009f]/g, unicodeEscape);
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` for a `#` comment: every character that would end the line (or hide text) escaped. */
export function commentLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, unicodeEscape);
}

/**
 * A docstring of the given lines at `indent`, or '' when there are none. Backslashes and quotes
 * are escaped, so no text ends it early; control characters (other than the line breaks) and lone
 * surrogates become escapes.
 */
export function docstring(lines: readonly string[], indent: string): string {
  const text = lines.join('\n').trim();
  if (text === '') return '';
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      unicodeEscape,
    );
  const [first, ...rest] = escaped.split('\n');
  if (rest.length === 0) return `${indent}"""${first}"""\n`;
  const body = rest.map((line) => (line.trim() === '' ? '' : `${indent}${line.trimEnd()}`)).join('\n');
  return `${indent}"""${first}\n${body}\n${indent}"""\n`;
}
