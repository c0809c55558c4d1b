/**
 * Text inside generated Python: string literals, docstrings and `#` comments. Whatever an IDL file
 * holds (quotes, backslashes, line breaks, control characters) stays inside them.
 */

/** PEP 8's longest line (pycodestyle's default). */
export const MAX_LINE = 79;

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
 * A docstring of the given lines at `indent`, or '' when there are none, wrapped within PEP 8's 79
 * columns (a closing quote of its own when it does not fit on one line). Backslashes and quotes
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
  const width = MAX_LINE - indent.length;
  const single = escaped.split('\n');
  if (single.length === 1 && `${indent}"""${escaped}"""`.length <= MAX_LINE) return `${indent}"""${escaped}"""\n`;
  const [first, ...rest] = wrapLines(single, width, width - 3);
  const body = rest.map((line) => `${line.trim() === '' ? '' : `${indent}${line.trimEnd()}`}\n`).join('');
  return `${indent}"""${first}\n${body}${indent}"""\n`;
}

/**
 * Lines of text wrapped at spaces to `width` columns (`firstWidth` for the first): the continuation
 * of an indented line (an `Args:` entry) is indented four more; a word longer than the width stays
 * whole.
 */
export function wrapLines(lines: readonly string[], width: number, firstWidth = width): string[] {
  const wrapped: string[] = [];
  for (const line of lines) {
    const lead = /^ */.exec(line)![0];
    const words = line
      .slice(lead.length)
      .split(' ')
      .filter((word) => word !== '');
    if (words.length === 0) {
      wrapped.push('');
      continue;
    }
    let current = lead + words[0];
    let continuation = false;
    for (const word of words.slice(1)) {
      const limit = wrapped.length === 0 && !continuation ? firstWidth : width;
      if (`${current} ${word}`.length > limit) {
        wrapped.push(current);
        current = `${lead}${lead === '' ? '' : '    '}${word}`;
        continuation = true;
      } else {
        current += ` ${word}`;
      }
    }
    wrapped.push(current);
  }
  return wrapped;
}
