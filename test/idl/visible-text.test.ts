/**
 * escapeControlCharacters, and the code frames and diagnostics every tool prints (the CLI, the
 * bundler plugin's overlay, the language server), which show control and bidirectional characters
 * of a file as visible escapes.
 */
import { describe, expect, test } from 'vitest';
import { codeFrame, escapeControlCharacters, formatDiagnostic, tryCompileIdl } from '../../src/index.js';

describe('escapeControlCharacters', () => {
  test('C0 (but tab and newline), DEL, C1 and the bidirectional controls become \\uXXXX', () => {
    const controls = [0x00, 0x07, 0x08, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0x9f, 0x61c, 0x200e, 0x200f];
    const bidi = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const code of [...controls, ...bidi]) {
      expect(escapeControlCharacters(`a${String.fromCharCode(code)}b`)).toBe(`a\\u${code.toString(16).padStart(4, '0')}b`);
    }
  });

  test('keeps tab, newline, printable text and other Unicode; escaping twice changes nothing more', () => {
    const text = 'struct Café {\n\tname string // ✓ 日本 \u00a0\u200b\n}';
    expect(escapeControlCharacters(text)).toBe(text);
    const escaped = escapeControlCharacters('\u001b[2J\u202e');
    expect(escapeControlCharacters(escaped)).toBe(escaped);
  });
});

describe('frames and diagnostics', () => {
  const source = 'namespace shop\n// \u001b]0;title\u0007 \u202e\nstruct \u001b[2JCart {\n}\n';

  test("the overlay's flush frame shows the escapes, the caret under the escape as wide as it", () => {
    expect(codeFrame(source, 3, 8, 1, 'flush')).toBe(
      ['1 | namespace shop', '2 | // \\u001b]0;title\\u0007 \\u202e', '3 | struct \\u001b[2JCart {', '  |        ^^^^^^', '4 | }'].join(
        '\n',
      ),
    );
  });

  test('formatDiagnostic escapes the file name and the message too', () => {
    const result = tryCompileIdl(source, 'evil\u001b[2J.idl');
    const text = formatDiagnostic(result.diagnostics[0], source);
    expect(text.split('\n')[0]).toBe('evil\\u001b[2J.idl:3:8: error: expected a struct name');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
  });
});
