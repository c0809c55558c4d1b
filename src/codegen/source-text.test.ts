import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { commentText, docComment, indent, jsonParseExpression, propertyKey, stringLiteral } from './source-text.js';

describe('stringLiteral', () => {
  test.each([
    `plain`,
    `it's`,
    `say "hi"`,
    'back`tick`',
    'back\\slash \\"',
    'line\nbreak',
    '\u2028',
    '*/ </script>',
    'détail',
    'tab\there',
    '\ud83d\ude00 and a lone \ud800',
  ])('evaluates back to %j', (text) => {
    const literal = stringLiteral(text);
    expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
    expect(new Function(`return ${literal}`)()).toBe(text);
  });
});

test('stringLiteral escapes the line and paragraph separators', () => {
  expect(stringLiteral('a\u2028b\u2029c')).toBe("'a\\u2028b\\u2029c'");
});

describe('commentText', () => {
  test.each(['\n', '\r', '\r\n', '\u2028', '\u2029', '*/'])('keeps %j from ending a line or block comment', (end) => {
    const text = `a${end}\`; return 1; /*`;
    expect(new Function(`// ${commentText(text)}\nreturn 42;`)()).toBe(42);
    expect(new Function(`/* ${commentText(text)} */ return 42;`)()).toBe(42);
  });

  test('writes what it escapes as readable escapes and leaves the rest alone', () => {
    expect(commentText('x\r\ny\u2028z\u2029 */ `ok`')).toBe('x\\r\\ny\\u2028z\\u2029 *\\/ `ok`');
    expect(commentText('checkout.idl')).toBe('checkout.idl');
  });
});

describe('docComment', () => {
  test('cannot be ended early by */ in the text, and keeps quotes and backticks', () => {
    const doc = docComment('ends */ here with "quotes" and `ticks`\nsecond line');
    expect(doc).toBe('/**\n * ends *\\/ here with "quotes" and `ticks`\n * second line\n */\n');
    // The comment is still one comment: the code after it runs.
    expect(new Function(`${doc}return 42;`)()).toBe(42);
  });

  test('cannot be ended early by a line terminator inside a line either', () => {
    const doc = docComment('a\u2028b\r*/ c');
    expect(doc).toBe('/** a\\u2028b\\r*\\/ c */\n');
    expect(new Function(`${doc}return 42;`)()).toBe(42);
  });

  test('is empty without text or tags, one line for one line, and indents', () => {
    expect(docComment(undefined)).toBe('');
    expect(docComment('one', '  ')).toBe('  /** one */\n');
    expect(docComment('text', '  ', ['', '@throws X'])).toBe('  /**\n   * text\n   *\n   * @throws X\n   */\n');
  });
});

test('indent indents every line but empty ones, the last line too', () => {
  expect(indent('a\nb', '  ')).toBe('  a\n  b');
  expect(indent('a\n\nb\n', '  ')).toBe('  a\n\n  b\n');
  expect(indent('\n a\n\n', '--')).toBe('\n-- a\n\n');
  expect(indent('', '  ')).toBe('');
  // Only `\n` ends a line (a `\r` is part of it, as generated code never holds one unescaped).
  expect(indent('x\r\ny', '  ')).toBe('  x\r\n  y');
});

test('propertyKey quotes only what is not an identifier', () => {
  expect(propertyKey('cartId')).toBe('cartId');
  expect(propertyKey('Interface.method')).toBe("'Interface.method'");
});

test('jsonParseExpression gives back the value, whatever its strings hold', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: `${` is what the template must escape
  const tricky = 'a `tick` ${x} \\ back "quote" \n line \u2028 sep \u0001 marker \ud800 lone \u0000 nul';
  const value = { a: 1, 'b-c': [true, null, "it's"], nested: { deep: [{ x: 'y'.repeat(90) }], empty: {} }, list: [], [tricky]: tricky };
  const expression = jsonParseExpression(value);
  expect(new Function(`return ${expression}`)()).toStrictEqual(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the anchor markers are control characters
  expect(expression).not.toMatch(/[\u2028\u2029\u0001-\u0003]/);
  expect(jsonParseExpression({ builtIn: 'string', list: [1, 2] })).toBe('JSON.parse(`{"builtIn":"string","list":[1,2]}`)');
});

test('jsonParseExpression keeps a value of up to 80 characters on one line, even deep inside a larger one', () => {
  const fits = { key: 'x'.repeat(80 - '{"key":""}'.length) };
  expect(jsonParseExpression(fits)).toBe(`JSON.parse(\`{"key":"${fits.key}"}\`)`);
  const tooLong = { key: `${fits.key}x` };
  expect(jsonParseExpression(tooLong)).toBe(`JSON.parse(\`{\n  "key": "${tooLong.key}"\n}\`)`);
  const outer = { list: [fits, tooLong] };
  expect(jsonParseExpression(outer)).toBe(
    `JSON.parse(\`{\n  "list": [\n    {"key":"${fits.key}"},\n    {\n      "key": "${tooLong.key}"\n    }\n  ]\n}\`)`,
  );
});

/**
 * The layout `jsonParseExpression` promises, written the plain way (each entry's text built from
 * its own entries'): what the generator's reading of `JSON.stringify`'s text must match.
 */
function referenceLayout(value: unknown, pad = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${pad}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => ({ key: '', text: referenceLayout(item, inner) }))
    : Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => ({ key: JSON.stringify(key), text: referenceLayout(item, inner) }));
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const line = entries.map(({ key, text }) => (key ? `${key}:${text}` : text)).join(',');
  if (!line.includes('\n') && line.length + 2 <= 80) return `${open}${line}${close}`;
  const lines = entries.map(({ key, text }) => `${inner}${key ? `${key}: ${text}` : text}`);
  return `${open}\n${lines.join(',\n')}\n${pad}${close}`;
}

/** The text inside `JSON.parse(`...`)`, the template's escapes undone. */
function laidOutText(expression: string): string {
  const template = expression.slice('JSON.parse(`'.length, -'`)'.length);
  return template.replace(/\\([\\`$])/g, '$1');
}

test('jsonParseExpression lays out any JSON value as the plain definition does, with kept entries or without', () => {
  // Strings of quotes, backslashes and brackets: an escaped quote is where a reader of JSON text goes wrong.
  const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'é', '\n'), maxLength: 30 });
  const { value: json } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 8 }),
    object: fc.dictionary(text, tie('value'), { maxKeys: 8 }),
  }));
  fc.assert(
    fc.property(json, fc.boolean(), (value, keepEntries) => {
      // The IDL JSON's shape: an object of arrays, whose elements' texts are what `kept` holds.
      const wrapped = { declarations: [value, value] };
      const expression = jsonParseExpression(wrapped, keepEntries ? new WeakMap() : undefined);
      expect(laidOutText(expression)).toBe(referenceLayout(wrapped));
      expect(new Function(`return ${expression}`)()).toStrictEqual(JSON.parse(JSON.stringify(wrapped)));
    }),
    { numRuns: 500 },
  );
});
