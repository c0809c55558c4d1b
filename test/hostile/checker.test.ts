/**
 * The checker (and what prints its diagnostics) on inputs shaped to make it slow, eat memory or
 * overflow the stack: long `extends` chains and cycles, huge mistyped names, thousands of unknown
 * names, blocks with hundreds of thousands of items. Every input is generated here, written to a
 * temporary folder and checked by the built CLI in a child with a small heap and a hang guard.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileCli, runHostileScript, tempFolder, type ChildRun } from './harness.js';
import {
  attributedStruct,
  attributeMistakes,
  bigEnum,
  bigErrors,
  bigInterface,
  bigStruct,
  extendsChain,
  extendsCycle,
  mistypedNames,
  requiredFieldChain,
  unknownTypes,
} from './idl-shapes.js';

const TIMEOUT = 90_000;
/** How many diagnostics a report shows before "and N more" (docs/idl.md, "Errors"). */
const SHOWN = 100;

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => {
  ensureBuilt();
  folder = tempFolder();
});
afterAll(() => folder.remove());

/** Writes `lines` as `<name>` in the temporary folder and returns the name. */
function idlFile(name: string, lines: string[]): string {
  writeFileSync(join(folder.dir, name), `${lines.join('\n')}\n`);
  return name;
}

function validate(name: string): Promise<ChildRun> {
  return runHostileCli(['-validate', name], folder.dir);
}

/** Neither hung nor crashed: the child ended on its own and printed no stack trace. */
function expectCleanExit(run: ChildRun): void {
  expect(run.hung).toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr)).toBe(false);
}

/** The `file:line:column: error:` headers of a report, one per diagnostic shown. */
function headers(report: string, name: string): string[] {
  return report.split('\n').filter((line) => line.startsWith(`${name}:`) && / error: /.test(line));
}

describe('the checker on hostile input', () => {
  test(
    'an extends chain of 10,000 structs checks',
    async () => {
      const run = await validate(idlFile('chain.idl', extendsChain(10_000)));
      expectCleanExit(run);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe('chain.idl: ok (0 interfaces, 10000 structs, 0 enums, 0 errors)\n');
    },
    TIMEOUT,
  );

  test(
    'an extends chain of 10,000 structs whose last struct redeclares the root field: one duplicate-field error',
    async () => {
      const lines = extendsChain(10_000);
      lines.splice(lines.length - 1, 0, '    f0 string');
      const run = await validate(idlFile('chain-duplicate.idl', lines));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      expect(headers(run.stderr, 'chain-duplicate.idl')).toEqual([
        `chain-duplicate.idl:${lines.length - 1}:5: error: field 'f0' is already declared in parent struct 'S0' on line 3`,
      ]);
    },
    TIMEOUT,
  );

  test(
    'an extends cycle of 10,000 structs is one located error with a short path',
    async () => {
      const run = await validate(idlFile('cycle.idl', extendsCycle(10_000)));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      expect(headers(run.stderr, 'cycle.idl')).toEqual([
        "cycle.idl:2:19: error: struct 'S0' extends itself: S0 -> S1 -> S2 -> S3 -> ... (9993 more) ... -> S9997 -> S9998 -> S9999 -> S0",
      ]);
      expect(run.stderr.endsWith('\n\n1 error in cycle.idl\n')).toBe(true);
    },
    TIMEOUT,
  );

  test(
    'a required-field chain of 10,000 structs checks, and closing it into a cycle is one located error',
    async () => {
      const open = await validate(idlFile('field-chain.idl', requiredFieldChain(10_000, 'int')));
      expectCleanExit(open);
      expect(open.stdout).toBe('field-chain.idl: ok (0 interfaces, 10000 structs, 0 enums, 0 errors)\n');

      const closed = await validate(idlFile('field-cycle.idl', requiredFieldChain(10_000, 'S0')));
      expectCleanExit(closed);
      expect(closed.code).toBe(1);
      expect(headers(closed.stderr, 'field-cycle.idl')).toEqual([
        "field-cycle.idl:3:5: error: struct 'S0' can never be built: its required fields lead back to it " +
          '(S0.next -> S1.next -> S2.next -> S3.next -> ... (9993 more) ... -> S9997.next -> S9998.next -> S9999.next -> S0); ' +
          'mark one of them [optional]',
      ]);
    },
    TIMEOUT,
  );

  test(
    'a 30,000-character mistyped name: one located unknown-type error, no suggestion, no out-of-memory',
    async () => {
      const long = 'A'.repeat(30_000);
      const lines = ['namespace hostile', `struct ${long} {`, '    x int', '}', 'struct User {', `    y ${long.slice(0, -1)}B`, '}'];
      const run = await validate(idlFile('long-name.idl', lines));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      expect(headers(run.stderr, 'long-name.idl')).toEqual([`long-name.idl:6:7: error: unknown type '${long.slice(0, -1)}B'`]);
    },
    TIMEOUT,
  );

  test(
    '4,000 mistyped names among 4,000 types: the first get a suggestion, the report stops after 100',
    async () => {
      const n = 4_000;
      const run = await validate(idlFile('typos.idl', mistypedNames(n)));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      const shown = headers(run.stderr, 'typos.idl');
      expect(shown).toHaveLength(SHOWN);
      expect(shown[0]).toBe("typos.idl:3:7: error: unknown type 'Typo0'; did you mean 'Type0'?");
      expect(run.stderr.endsWith(`\n\nand ${n - SHOWN} more\n\n${n} errors in typos.idl\n`)).toBe(true);
    },
    TIMEOUT,
  );

  test(
    '30,000 unknown-type errors: 100 are shown, then "and 29900 more"',
    async () => {
      const n = 30_000;
      const run = await validate(idlFile('unknown.idl', unknownTypes(n)));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      const shown = headers(run.stderr, 'unknown.idl');
      expect(shown).toHaveLength(SHOWN);
      expect(shown[0]).toBe("unknown.idl:3:8: error: unknown type 'Missing0'");
      expect(shown[SHOWN - 1]).toBe(`unknown.idl:${SHOWN + 2}:${String(SHOWN - 1).length + 7}: error: unknown type 'Missing${SHOWN - 1}'`);
      expect(run.stderr.endsWith(`\n\nand ${n - SHOWN} more\n\n${n} errors in unknown.idl\n`)).toBe(true);
    },
    TIMEOUT,
  );

  test(
    'attribute mistakes in bulk: 30,000 unknown names, 30,000 repeats in one list, 30,000 misordered parameters',
    async () => {
      const n = 30_000;
      const run = await validate(idlFile('attribute-mistakes.idl', attributeMistakes(n)));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      const shown = headers(run.stderr, 'attribute-mistakes.idl');
      expect(shown).toHaveLength(SHOWN);
      expect(shown[0]).toBe(
        "attribute-mistakes.idl:3:13: error: unknown attribute 'mni0': the attributes here are optional, default, min, max, exclusiveMin, exclusiveMax, multipleOf, format",
      );
      expect(run.stderr.endsWith(`\n\n${3 * n - 1} errors in attribute-mistakes.idl\n`)).toBe(true);
    },
    TIMEOUT,
  );

  test(
    '100,000 unknown types on one 2 MB line: each code frame shows a window of the line',
    async () => {
      const n = 100_000;
      const parameters = Array.from({ length: n }, (_, i) => `p${i} Missing${i}`).join(', ');
      const run = await validate(idlFile('one-line.idl', ['namespace hostile', 'interface I {', `    m(${parameters}) int`, '}']));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      expect(headers(run.stderr, 'one-line.idl')).toHaveLength(SHOWN);
      expect(run.stderr.endsWith(`\n\nand ${n - SHOWN} more\n\n${n} errors in one-line.idl\n`)).toBe(true);
      // 100 frames of a few lines of at most 120 columns each, not 100 copies of the line.
      expect(run.stderr.length).toBeLessThan(SHOWN * 1_000);
    },
    TIMEOUT,
  );

  test(
    'the plugin\'s error for 30,000 unknown types shows 100 of them, then "and 29900 more"',
    async () => {
      const run = await runHostileScript(`
        const { compileIdlSource, IdlModuleError } = await import(DIST + 'src/codegen/idl-module.js');
        const lines = ['namespace hostile', 'struct S {'];
        for (let i = 0; i < 30000; i++) lines.push('    f' + i + ' Missing' + i);
        lines.push('}');
        try {
          compileIdlSource(lines.join('\\n') + '\\n', 'unknown.idl');
          console.log('compiled');
        } catch (error) {
          if (!(error instanceof IdlModuleError)) throw error;
          console.log(JSON.stringify({ count: error.diagnostics.length, message: error.message, summary: error.summary }));
        }
      `);
      expectCleanExit(run);
      const { count, message, summary } = JSON.parse(run.stdout) as { count: number; message: string; summary: string };
      expect(count).toBe(30_000);
      for (const report of [message, summary]) {
        expect(headers(report, 'unknown.idl')).toHaveLength(SHOWN);
        expect(report.endsWith('\nand 29900 more')).toBe(true);
      }
    },
    TIMEOUT,
  );

  test.each([
    ['an enum with 200,000 values', 'enum.idl', bigEnum(200_000), '0 interfaces, 0 structs, 1 enum, 0 errors'],
    ['a struct with 200,000 fields', 'struct.idl', bigStruct(200_000), '0 interfaces, 1 struct, 0 enums, 0 errors'],
    ['an interface with 150,000 methods', 'interface.idl', bigInterface(150_000), '1 interface, 0 structs, 0 enums, 0 errors'],
    ['an errors block with 200,000 errors', 'errors.idl', bigErrors(200_000), '0 interfaces, 0 structs, 0 enums, 200000 errors'],
    [
      'a struct with 25,000 attribute lists and defaults',
      'attributes.idl',
      attributedStruct(25_000),
      '0 interfaces, 1 struct, 0 enums, 0 errors',
    ],
  ])(
    '%s checks',
    async (_name, file, lines, summary) => {
      const run = await validate(idlFile(file, lines));
      expectCleanExit(run);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe(`${file}: ok (${summary})\n`);
    },
    TIMEOUT,
  );

  test.each([
    ['a struct with 200,000 fields', bigStruct(200_000), ['struct S {', '    f0           int']],
    ['an errors block with 200,000 errors', bigErrors(200_000), ['errors {', '    1      E0      "failed"']],
  ])(
    '-format prints %s',
    async (_name, lines, start) => {
      const run = await runHostileCli(['-format', idlFile('format.idl', lines)], folder.dir);
      expectCleanExit(run);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      // The printer puts a blank line after the namespace.
      const printed = run.stdout.split('\n');
      expect(printed.slice(0, 4)).toEqual(['namespace hostile', '', ...start]);
      expect(printed).toHaveLength(lines.length + 2);
    },
    TIMEOUT,
  );
});

describe('doc tags on hostile input', () => {
  test(
    'a doc comment of 200,000 unknown @word lines: located notes, the first 100 shown, exit 0',
    async () => {
      const lines = [
        'namespace shop',
        '',
        'struct Item {',
        ...Array.from({ length: 200_000 }, (_, i) => `    // @todo ${i}`),
        '    id  string',
        '}',
      ];
      const run = await validate(idlFile('todo.idl', lines));
      expectCleanExit(run);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^todo\.idl:4:8: note: unknown doc tag '@todo'/);
      expect(run.stderr).toContain('and 199900 more');
    },
    TIMEOUT,
  );

  test(
    'an @example nested 200,000 levels deep, and one deeper than the checker walks: located errors',
    async () => {
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      const nested = `${'{"next": '.repeat(100)}null${'}'.repeat(100)}`;
      const lines = [
        'namespace shop',
        '',
        'struct Node {',
        `    // @example ${deep}`,
        '    a  []int  [optional]',
        `    // @example ${nested}`,
        '    next  Node  [optional]',
        '}',
      ];
      const run = await validate(idlFile('deep.idl', lines));
      expectCleanExit(run);
      expect(run.code).toBe(1);
      expect(headers(run.stderr, 'deep.idl')).toEqual([
        expect.stringMatching(
          /^deep\.idl:4:17: error: @example is not a value of this field: at \$\[0\]: expected an integer, found an array$/,
        ),
        expect.stringMatching(
          /^deep\.idl:6:17: error: @example is not a value of this field: at \$(\.next)+: nested deeper than 64 levels/,
        ),
      ]);
    },
    TIMEOUT,
  );
});
