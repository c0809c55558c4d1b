/**
 * Syntax error recovery: one parse reports every independent syntax error of a file (docs/idl.md,
 * "Errors"), without errors that only the skipping caused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IdlCompileError, IdlSyntaxError, compileIdl, parseIdl, printIdl, tryCompileIdl } from '../../src/index.js';
import { MAX_SYNTAX_ERRORS } from '../../src/idl/parser.js';
import { IdlModuleError, compileIdlSource } from '../../src/codegen/idl-module.js';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { randomIdlFile } from './random-idl.js';
import { RETURN_TYPE, TYPE, ns, syntaxCases } from './syntax-cases.js';

const DECLARATION = 'expected a declaration (namespace, import, enum, struct, union, errors or interface)';

/** The syntax errors `parseIdl` throws for `source`, as `line:column message`. */
function syntaxErrorsOf(source: string): string[] {
  try {
    parseIdl(source, 'broken.idl');
  } catch (error) {
    if (!(error instanceof IdlSyntaxError)) throw error;
    expect(error.diagnostic).toBe(error.diagnostics[0]);
    return error.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
  }
  return [];
}

/** Four broken declarations, each broken once; the declarations between them are fine. */
const fourBrokenDeclarations = ns(
  [
    'struct Cart {', //                          2
    '    id', //                                 3: no type
    '    total float', //                        4
    '}', //                                      5
    'enum Status {', //                          6
    '    open', //                               7
    '}', //                                      8
    'errors {', //                               9
    '    Missing 1001 "not there"', //           10: name where the code belongs
    '}', //                                      11
    'struct Line {', //                          12
    '    sku string', //                         13
    '}', //                                      14
    'interface CartService {', //                15
    '    get(id string) Cart', //                16
    '    add(cart Cart line Line) Cart', //      17: missing comma
    '}', //                                      18
    'struct Empty extend Cart {', //             19: misspelled extends
    '}', //                                      20
    '',
  ].join('\n'),
);
const fourBrokenExpected = [
  `3:7 ${TYPE}`,
  "10:5 expected an error code (an integer) or '}'",
  "17:19 expected ',', ')' or '[optional]'",
  "19:14 expected 'extends' or '{'",
];

describe('several syntax errors in one file', () => {
  test('errors in different declarations are each reported at their line:column, in file order', () => {
    expect(syntaxErrorsOf(fourBrokenDeclarations)).toEqual(fourBrokenExpected);
  });

  test('errors on several item lines of one enum, struct or errors block are each reported', () => {
    const source = ns(
      [
        'enum Color {', //               2
        '    red green', //              3
        '    1blue', //                  4
        '    yellow', //                 5
        '}', //                          6
        'struct Box {', //               7
        '    width', //                  8
        '    height int', //             9
        '    depth map[int]string', //   10
        '    label string optional', //  11
        '}', //                          12
        'errors {', //                   13
        '    1 Gone "gone', //           14
        '    2 Late "a\\tb"', //         15
        '    3 Fine "fine"', //          16
        '}', //                          17
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual([
      '3:9 expected the end of the line',
      "4:5 expected an enum value or '}'",
      `8:10 ${TYPE}`,
      '10:15 map keys must be string: write map[string]T',
      "11:18 expected '[optional]' or the end of the line",
      '14:12 the message has no closing quote (")',
      '15:14 unknown escape in a message: only \\" and \\\\ are allowed',
    ]);
  });

  test('errors on several one-line methods of an interface are each reported', () => {
    const source = ns(
      [
        'interface Shop {', //                           2
        '    ping()', //                                 3
        '    find(id string optional) int', //           4
        '    list() []string', //                        5
        '    import() int', //                           6
        '}', //                                          7
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual([
      `3:11 ${RETURN_TYPE}`,
      "4:20 expected ',', ')' or '[optional]'",
      "6:5 'import' is a reserved word and cannot be used as a name",
    ]);
  });

  test('an error inside a method spread over several lines skips to the next declaration', () => {
    const source = ns(
      [
        'interface Shop {', //       2
        '    add(', //               3
        '        a int', //          4
        '        b int', //          5: missing comma
        '    ) int', //              6
        '    ping() int', //         7
        '}', //                      8
        'struct A {', //             9
        '    x', //                  10
        '}', //                      11
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual(["5:9 expected ',' or ')'", `10:6 ${TYPE}`]);
  });

  test('a block left open is reported once, and the declaration after it is parsed', () => {
    const source = ns(
      [
        'struct A {', //     2
        '    a int', //      3
        'struct B {', //     4
        '    b', //          5
        '}', //              6
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual(["4:1 expected '}' to close struct A (line 2) before this 'struct'", `5:6 ${TYPE}`]);
  });

  test('after an error inside a block, a missing brace of that block is still named', () => {
    const source = ns(
      [
        'struct A {', //     2
        '    1x', //         3
        '    a int', //      4
        'enum B {', //       5
        '    b', //          6
        '}', //              7
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual([
      "3:5 expected a field name or '}'",
      "5:1 expected '}' to close struct A (line 2) before this 'enum'",
    ]);
  });

  test('a broken header skips its whole block, including the closing brace', () => {
    const source = ns(
      [
        'struct A', //           2: no brace
        '    a int', //          3
        '}', //                  4
        '}', //                  5: skipped with the block
        'enum E {', //           6
        '    x y', //            7
        '}', //                  8
        '',
      ].join('\n'),
    );
    expect(syntaxErrorsOf(source)).toEqual(["2:9 expected 'extends' or '{'", '7:7 expected the end of the line']);
  });

  test('garbage before the namespace does not hide the namespace or the errors after it', () => {
    const source = ['garbage', 'namespace shop', 'struct A {', '    1x', '}', ''].join('\n');
    expect(syntaxErrorsOf(source)).toEqual([`1:1 ${DECLARATION}`, "4:5 expected a field name or '}'"]);
  });

  test('a namespace after declarations is still reported after an earlier error', () => {
    const source = ns(['struct A {', '    x', '}', 'namespace other', ''].join('\n'));
    expect(syntaxErrorsOf(source)).toEqual([`3:6 ${TYPE}`, '5:1 the namespace must be declared once, before every other declaration']);
  });

  test('a type nested too deep to parse is reported along with the other errors, in file order', () => {
    const deep = `${'[]'.repeat(200)}int`;
    const source = ns(
      ['struct A {', '    a', '}', 'struct B {', `    b ${deep}`, '    c int', `    d ${deep}`, '}', 'enum E {', '    x y', '}', ''].join(
        '\r\n',
      ),
    );
    expect(syntaxErrorsOf(source)).toEqual([
      `3:6 ${TYPE}`,
      '6:7 this type is nested more than 100 levels deep',
      '8:7 this type is nested more than 100 levels deep',
      '11:7 expected the end of the line',
    ]);
  });

  test('CRLF line endings give the same lines and columns', () => {
    expect(syntaxErrorsOf(fourBrokenDeclarations.replace(/\n/g, '\r\n'))).toEqual(fourBrokenExpected);
  });

  test(`the count stops at ${MAX_SYNTAX_ERRORS}`, () => {
    const broken = Array.from({ length: MAX_SYNTAX_ERRORS + 10 }, (_, k) => `struct S${k} {\n    x\n}\n`).join('');
    const errors = syntaxErrorsOf(ns(broken));
    expect(errors).toHaveLength(MAX_SYNTAX_ERRORS);
    // Each struct takes three lines after the namespace; the field `x` is on the second.
    expect(errors).toEqual(Array.from({ length: MAX_SYNTAX_ERRORS }, (_, k) => `${3 * k + 3}:6 ${TYPE}`));
  });
});

describe('one syntax error gives one diagnostic (no cascade)', () => {
  test.each(syntaxCases)('$name', ({ source, expected }) => {
    expect(syntaxErrorsOf(source).map((e) => `${e.split(' ')[0]} syntax ${e.slice(e.indexOf(' ') + 1)}`)).toEqual(expected);
  });

  // Each broken input followed by a second, independent broken struct: exactly two diagnostics,
  // the original first. Inputs whose error is the end of the file cannot be followed by anything.
  const followable = syntaxCases.filter((c) => !c.expected[0].includes('unexpected end of file'));
  test.each(followable)('$name, then one more broken declaration', ({ source, expected }) => {
    const tail = 'struct Tail {\n    x\n}\n';
    const tailLine = source.split('\n').length;
    const diagnostics = tryCompileIdl(source + tail, 'broken.idl').diagnostics;
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      expected[0],
      `${tailLine + 1}:6 syntax ${TYPE}`,
    ]);
  });
});

describe('a broken last line of a block is taken for its missing brace', () => {
  test.each([
    ['before the next declaration', ns('struct A {\n    a int\n%%%\n\n// next\nenum E {\n    x\n}\n'), "4:1 expected a field name or '}'"],
    ['at the end of the file', ns('enum E {\n    x\n%%%\n'), "4:1 expected an enum value or '}'"],
  ])('%s: one diagnostic', (_name, source, expected) => {
    expect(syntaxErrorsOf(source)).toEqual([expected]);
  });
});

describe('an error on a line that also closes its block', () => {
  test.each([
    ['garbage before the brace', ns('struct A {\n    a int\n%}\nstruct B {\n    b int\n}\n'), "4:1 expected a field name or '}'"],
    ['the brace after an item', ns('struct A {\n    a int [optional]}\nenum E {\n    x\n}\n'), '3:21 expected the end of the line'],
    ['the brace after an error', ns('errors {\n    1 E "e"}\nstruct B {\n}\n'), '3:12 expected the end of the line'],
  ])('%s: one diagnostic, the brace is not reported again', (_name, source, expected) => {
    expect(syntaxErrorsOf(source)).toEqual([expected]);
  });
});

describe('property: one broken character, one diagnostic', () => {
  test('deleting, doubling or inserting one character in a valid file gives no error or exactly one', () => {
    fc.assert(
      fc.property(fc.gen(), fc.nat(), fc.constantFrom('delete', 'double', 'insert'), (g, pick, edit) => {
        const text = printIdl(randomIdlFile(g));
        const i = pick % text.length;
        const broken =
          edit === 'delete' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + (edit === 'double' ? text[i] : '%') + text.slice(i);
        expect(syntaxErrorsOf(broken).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  test('deleting, doubling or garbling one line of a valid file gives no error or exactly one', () => {
    fc.assert(
      fc.property(fc.gen(), fc.nat(), fc.constantFrom('delete', 'double', 'garble'), (g, pick, edit) => {
        const lines = printIdl(randomIdlFile(g)).split('\n');
        const i = pick % lines.length;
        if (edit === 'delete') lines.splice(i, 1);
        else if (edit === 'double') lines.splice(i, 0, lines[i]);
        else lines[i] = '%%%';
        expect(syntaxErrorsOf(lines.join('\n')).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the API reports every syntax error', () => {
  test('IdlSyntaxError: diagnostic is the first, message shows each with its frame and the count', () => {
    let error: unknown;
    try {
      parseIdl(fourBrokenDeclarations, 'shop.idl');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IdlSyntaxError);
    const syntax = error as IdlSyntaxError;
    expect(syntax.diagnostic).toMatchObject({ file: 'shop.idl', line: 3, column: 7 });
    expect(syntax.diagnostics.map((d) => [d.line, d.column])).toEqual([
      [3, 7],
      [10, 5],
      [17, 19],
      [19, 14],
    ]);
    expect(syntax.message).toContain(`shop.idl:3:7: error: ${TYPE}\n`);
    expect(syntax.message).toContain('> 10 |     Missing 1001 "not there"');
    expect(syntax.message).toContain("shop.idl:17:19: error: expected ',', ')' or '[optional]'\n");
    expect(syntax.message).toContain("shop.idl:19:14: error: expected 'extends' or '{'\n");
    expect(syntax.message.endsWith('\n\n4 errors')).toBe(true);
  });

  test('tryCompileIdl returns every syntax error and no tree; the checker does not run', () => {
    // `Nowhere` is an unknown type: the checker would report it, but syntax errors come first.
    const source = ns('struct A {\n    a Nowhere\n    b\n}\nenum E {\n    x y\n}\n');
    const result = tryCompileIdl(source, 'shop.idl');
    expect(result.model).toBeUndefined();
    expect(result.file).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['4:6 syntax', '7:7 syntax']);
  });

  test('the plugin gets every syntax error, each with file:line:column', () => {
    let error: unknown;
    try {
      compileIdlSource(fourBrokenDeclarations, '/src/shop.idl');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IdlModuleError);
    expect((error as IdlModuleError).summary.split('\n')).toEqual([
      `/src/shop.idl:3:7: error: ${TYPE}`,
      "/src/shop.idl:10:5: error: expected an error code (an integer) or '}'",
      "/src/shop.idl:17:19: error: expected ',', ')' or '[optional]'",
      "/src/shop.idl:19:14: error: expected 'extends' or '{'",
    ]);
  });

  test('compileIdl throws IdlCompileError with every syntax error', () => {
    expect(() => compileIdl(fourBrokenDeclarations, 'shop.idl')).toThrow(IdlCompileError);
    try {
      compileIdl(fourBrokenDeclarations, 'shop.idl');
    } catch (error) {
      expect((error as IdlCompileError).diagnostics).toHaveLength(4);
      expect((error as IdlCompileError).message.endsWith('\n\n4 errors')).toBe(true);
    }
  });
});

describe('property: garbage between declarations', () => {
  /** Characters that can never spell a keyword, a name or a comment. */
  const garbageLine = fc.string({ unit: fc.constantFrom(...'0123456789%$#@!{}()[]=+-*;:<>?'), minLength: 1, maxLength: 20 });
  const garbageBlock = fc.array(garbageLine, { minLength: 1, maxLength: 3 });

  test('each garbage block inserted before a declaration (or at the end) is one diagnostic, at its first line', () => {
    fc.assert(
      fc.property(fc.gen(), fc.array(garbageBlock, { minLength: 1, maxLength: 4 }), fc.array(fc.nat()), (g, blocks, picks) => {
        const lines = printIdl(randomIdlFile(g)).split('\n');
        const declarationLines = lines.flatMap((line, index) => (/^(?:struct|enum|errors|interface) /.test(line) ? [index] : []));
        const slots = [...declarationLines, lines.length - 1];
        // Distinct insertion slots, each before one line of the printed file.
        const chosen = [...new Set(blocks.map((_, k) => slots[(picks[k] ?? k) % slots.length]))].sort((a, b) => a - b);
        const out: string[] = [];
        const expected: string[] = [];
        let next = 0;
        chosen.forEach((slot, k) => {
          out.push(...lines.slice(next, slot));
          expected.push(`${out.length + 1}:1 ${DECLARATION}`);
          out.push(...blocks[k]);
          next = slot;
        });
        out.push(...lines.slice(next));
        expect(syntaxErrorsOf(out.join('\n'))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the CLI prints every syntax error', () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'idlrpc-syntax-'));
    writeFileSync(join(dir, 'broken.idl'), fourBrokenDeclarations);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const headers = [
    `broken.idl:3:7: error: ${TYPE}`,
    "broken.idl:10:5: error: expected an error code (an integer) or '}'",
    "broken.idl:17:19: error: expected ',', ')' or '[optional]'",
    "broken.idl:19:14: error: expected 'extends' or '{'",
  ];
  /** The `file:line:column: error: message` lines of a run's output, in order. */
  const headerLines = (text: string) => text.split('\n').filter((line) => line.startsWith('broken.idl:'));

  test('-validate prints all errors with file:line:column and exits 1', async () => {
    const run = await runCli(['-validate', 'broken.idl'], dir);
    expect(run.code).toBe(1);
    expect(headerLines(run.stderr)).toEqual(headers);
    expect(run.stderr).toContain('\n\n4 errors in broken.idl\n');
  });

  test('-format prints all errors, exits 1 and leaves the file as it was', async () => {
    const run = await runCli(['-format', '-w', 'broken.idl'], dir);
    expect(run.code).toBe(1);
    expect(headerLines(run.stderr)).toEqual(headers);
    expect(run.stderr).toContain('4 errors in broken.idl');
    expect(readFileSync(join(dir, 'broken.idl'), 'utf8')).toBe(fourBrokenDeclarations);
  });

  test('the generator prints all errors and exits 1', async () => {
    const run = await runCli(['-plugin', 'ts-client-server', '-dir', 'out', 'broken.idl'], dir);
    expect(run.code).toBe(1);
    expect(headerLines(run.stderr)).toEqual(headers);
  });
});
