/**
 * Diagnostics as data for tools: `range` (start and end of the offending text) and `related` (the
 * second place a message names, such as "on line 3"), beside the unchanged message, line, column
 * and length.
 */
import { describe, expect, test } from 'vitest';
import { type Diagnostic, type SourceRange, tryCompileIdl } from '../../src/index.js';
import { ns, syntaxCases } from './syntax-cases.js';

const diagnosticsOf = (source: string) => tryCompileIdl(source, 'shop.idl').diagnostics;

/** `line:column-line:column`. */
const where = (range: SourceRange) => `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}`;

/** A diagnostic as `code range message`, then each related location as `  related range message`. */
function located(d: Diagnostic): string[] {
  return [`${d.code} ${where(d.range)} ${d.message}`, ...(d.related ?? []).map((r) => `  ${r.file} ${where(r.range)} ${r.message}`)];
}

describe('related locations: the place "on line N" names, as data', () => {
  test.each([
    [
      'duplicate-type',
      ns('struct Cart {\n}\nenum Cart {\n    a\n}\n'),
      ["duplicate-type 4:6-4:10 'Cart' is already declared as a struct on line 2", "  shop.idl 2:8-2:12 'Cart' is first declared here"],
    ],
    [
      'duplicate-interface',
      ns('interface Shop {\n}\ninterface Shop {\n}\n'),
      [
        "duplicate-interface 4:11-4:15 'Shop' is already declared as an interface on line 2",
        "  shop.idl 2:11-2:15 'Shop' is first declared here",
      ],
    ],
    [
      'duplicate-field in the struct',
      ns('struct A {\n    id int\n    id string\n}\n'),
      [
        "duplicate-field 4:5-4:7 field 'id' is already declared in struct 'A' on line 3",
        "  shop.idl 3:5-3:7 field 'id' is first declared here",
      ],
    ],
    [
      'duplicate-field in a parent',
      ns('struct Base {\n    id int\n}\nstruct A extends Base {\n    id string\n}\n'),
      [
        "duplicate-field 6:5-6:7 field 'id' is already declared in parent struct 'Base' on line 3",
        "  shop.idl 3:5-3:7 field 'id' is first declared here",
      ],
    ],
    [
      'duplicate-method',
      ns('interface I {\n    ping() int\n    ping() bool\n}\n'),
      [
        "duplicate-method 4:5-4:9 method 'ping' is already declared in interface 'I' on line 3",
        "  shop.idl 3:5-3:9 method 'ping' is first declared here",
      ],
    ],
    [
      'duplicate-enum-value',
      ns('enum E {\n    a\n    a\n}\n'),
      [
        "duplicate-enum-value 4:5-4:6 enum value 'a' is already declared in enum 'E' on line 3",
        "  shop.idl 3:5-3:6 enum value 'a' is first declared here",
      ],
    ],
    [
      'duplicate-error',
      ns('errors {\n    1 Gone "a"\n}\nerrors {\n    2 Gone "b"\n}\n'),
      ["duplicate-error 6:7-6:11 error 'Gone' is already declared on line 3", "  shop.idl 3:7-3:11 error 'Gone' is first declared here"],
    ],
    [
      'duplicate-error-code',
      ns('errors {\n    1001 A "a"\n    1001 B "b"\n}\n'),
      [
        "duplicate-error-code 4:5-4:9 error code 1001 is already used by 'A' on line 3",
        "  shop.idl 3:5-3:9 error code 1001 is first used here, by 'A'",
      ],
    ],
    [
      "syntax: a block's missing '}'",
      ns('struct Cart {\n    a int\nstruct B {\n}\n'),
      ["syntax 4:1-4:7 expected '}' to close struct Cart (line 2) before this 'struct'", '  shop.idl 2:8-2:12 struct Cart starts here'],
    ],
    [
      "syntax: a block's missing '}' after an error inside it",
      ns('enum Color {\n    1x\n    red\ninterface I {\n}\n'),
      [
        "syntax 3:5-3:7 expected an enum value or '}'",
        "syntax 5:1-5:10 expected '}' to close enum Color (line 2) before this 'interface'",
        '  shop.idl 2:6-2:11 enum Color starts here',
      ],
    ],
  ])('%s', (_name, source, expected) => {
    expect(diagnosticsOf(source).flatMap(located)).toEqual(expected);
  });

  test('a message that names no second place has none', () => {
    const source = ns('struct A extends Missing {\n    a Nowhere\n    a int\n}\nerrors {\n    -32000 E "e"\n}\n');
    const diagnostics = diagnosticsOf(source);
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-parent', 'unknown-type', 'duplicate-field', 'error-code-reserved']);
    expect(diagnostics.filter((d) => d.related).map((d) => d.code)).toEqual(['duplicate-field']);
  });
});

describe('ranges', () => {
  test.each([
    ['an unknown type: the name', ns('struct A {\n    items []Missing\n}\n'), 'unknown-type 3:13-3:20'],
    ['a missing namespace: nothing to mark, at the start', 'struct A {\n}\n', 'missing-namespace 1:1-1:1'],
    ['a word where a type belongs: the word', ns('struct A {\n    id 42x\n}\n'), 'syntax 3:8-3:11'],
    ['an error at a line end: nothing to mark', ns('struct A {\n    id\n}\n'), 'syntax 3:7-3:7'],
    ['the end of the file: nothing to mark', ns('struct A {\n    a int\n'), 'syntax 4:1-4:1'],
    ['a lone carriage return: the CR', ns('struct A {\n    a int\r    b int\n}\n'), 'syntax 3:10-3:11'],
    ['a type nested too deep: its first two characters', ns(`struct A {\n    a ${'[]'.repeat(101)}int\n}\n`), 'syntax 3:7-3:9'],
    ['an error code: the number', ns('errors {\n    -32601 A "a"\n}\n'), 'error-code-reserved 3:5-3:11'],
  ])('%s', (_name, source, expected) => {
    const [d] = diagnosticsOf(source);
    expect(`${d.code} ${where(d.range)}`).toBe(expected);
  });

  test('start is line and column; end is start plus length when the text is on one line', () => {
    for (const { source } of syntaxCases) {
      for (const d of diagnosticsOf(source)) {
        expect([d.range.start.line, d.range.start.column]).toEqual([d.line, d.column]);
        expect(source.slice(0, d.range.start.offset).split('\n').length).toBe(d.line);
        const marked = d.range.end.offset - d.range.start.offset;
        expect(marked === 0 || marked === d.length).toBe(true);
      }
    }
  });
});
