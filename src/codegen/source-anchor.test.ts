import v8 from 'node:v8';
import { decode } from '@jridgewell/sourcemap-codec';
import { describe, expect, test } from 'vitest';
import type { SourceSpan } from '../idl/ast.js';
import { compileIdl } from '../idl/index.js';
import { generateModule } from './module.js';
import { ANCHOR_CHARACTERS, anchored, extractAnchors } from './source-anchor.js';
import { sourceMapOf } from './source-map.js';
import { commentText, docComment, stringLiteral } from './source-text.js';

const span = (file: string, line: number, column: number): SourceSpan => ({
  file,
  start: { offset: 0, line, column },
  end: { offset: 0, line, column: column + 1 },
});

describe('extractAnchors', () => {
  test('removes the markers and says where each stood, on any line, in any file', () => {
    const marked = `class ${anchored('CartClient', span('a.idl', 3, 11))} {\n  ${anchored('add', span('dir/b c%.idl', 9, 5))}() {}\n}\n`;
    const { text, anchors } = extractAnchors(marked);
    expect(text).toBe('class CartClient {\n  add() {}\n}\n');
    expect(anchors).toEqual([
      { line: 0, column: 6, source: { file: 'a.idl', line: 3, column: 11 } },
      { line: 1, column: 2, source: { file: 'dir/b c%.idl', line: 9, column: 5 } },
    ]);
  });

  test('a marker that was cut short or has no position is refused, not printed', () => {
    const whole = anchored('Cart', span('a.idl', 2, 8));
    for (const broken of [whole.slice(0, -6), `${whole.slice(0, whole.indexOf('2:8'))}x:8\u0003Cart`, `\u0001a.idl\u0001${whole}`]) {
      expect(() => extractAnchors(`const ${broken};`)).toThrow('internal error: a source anchor marker was cut or escaped');
    }
    // Markers of two files in turn each keep their own file.
    const two = `${anchored('A', span('a.idl', 1, 1))} ${anchored('B', span('b.idl', 2, 2))} ${anchored('C', span('a.idl', 3, 3))}`;
    expect(extractAnchors(two).anchors.map((anchor) => anchor.source.file)).toEqual(['a.idl', 'b.idl', 'a.idl']);
  });

  test('text without markers comes back as it is', () => {
    expect(extractAnchors('const a = 1;\n')).toEqual({ text: 'const a = 1;\n', anchors: [] });
  });

  test('user text cannot pose as a marker: string literals and comments escape the marker characters', () => {
    const forged = `\u0001a.idl\u00021:1\u0003`;
    expect(new Function(`return ${stringLiteral(forged)}`)()).toBe(forged);
    for (const printed of [stringLiteral(forged), commentText(forged), docComment(forged)]) {
      expect(extractAnchors(printed)).toEqual({ text: printed, anchors: [] });
    }
  });
});

describe('sourceMapOf', () => {
  test('encodes mapped and unmapped stretches, with sources as the caller names them', () => {
    const map = sourceMapOf(
      [
        { line: 0, column: 6, source: { file: '/p/a.idl', line: 3, column: 11 } },
        { line: 1, column: 0 },
        { line: 2, column: 2, source: { file: '/p/b.idl', line: 1, column: 1 } },
      ],
      {
        file: 'a.idl.d.ts',
        sourcePath: (file) => file.slice('/p/'.length),
        contentOf: (file) => (file === '/p/a.idl' ? 'text' : undefined),
      },
    );
    expect(map).toMatchObject({ version: 3, file: 'a.idl.d.ts', sources: ['a.idl', 'b.idl'], sourcesContent: ['text', null] });
    expect(decode(map.mappings)).toEqual([[[6, 0, 2, 10]], [[0]], [[2, 1, 0, 0]]]);
  });
});

test('an IDL whose comments and messages hold the marker characters generates its text unchanged', () => {
  const forged = `\u0001x.idl\u00021:1\u0003`;
  const source = `// ${forged}\nnamespace odd\n\nerrors {\n    1 Weird "${forged}"\n}\n`;
  const { js, dts, mappings } = generateModule(compileIdl(source, 'odd.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'odd.idl',
  });
  expect(js).toContain("'\\u0001x.idl\\u00021:1\\u0003'");
  expect(dts).not.toMatch(ANCHOR_CHARACTERS);
  expect(mappings.js.every((mapping) => mapping.source === undefined || mapping.source.file === 'odd.idl')).toBe(true);
});

/**
 * Whether V8 holds `text` one byte a character: its serialization tags a one-byte string `"` and a
 * two-byte one `c` (after the two header bytes).
 */
function isOneByteString(text: string): boolean {
  return v8.serialize(text)[2] === '"'.charCodeAt(0);
}

test('a module printed from an IDL of Latin-1 text is a one-byte string, its markers gone', () => {
  const source = `namespace shop\n\n// Un café: its name carries source positions.\nstruct Coffee {\n    name string\n}\n\ninterface Shop {\n    get(name string) Coffee\n}\n`;
  const { js, dts, mappings } = generateModule(compileIdl(source, 'shop.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'shop.idl',
  });
  expect(mappings.js.some((mapping) => mapping.source !== undefined)).toBe(true);
  expect(js).toContain('café');
  expect([isOneByteString(js), isOneByteString(dts)]).toEqual([true, true]);
  expect(isOneByteString('\uE000')).toBe(false);
});
