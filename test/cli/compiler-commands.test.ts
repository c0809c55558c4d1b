import { execFile } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/index.js';
import { BIN, REPO_ROOT, ensureBuilt, runCli } from './run-cli.js';

const CHECKOUT = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
const BROKEN = 'namespace shop\nstruct Cart {\n    items []Item\n    total flaot\n}\n';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'idlrpc-cli-'));
  writeFileSync(join(dir, 'checkout.idl'), CHECKOUT);
  writeFileSync(join(dir, 'broken.idl'), BROKEN);
  writeFileSync(join(dir, 'syntax.idl'), 'namespace shop\nstruct Cart {\n    items\n}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files in the temp dir, to prove a failed command left nothing behind. */
const listing = () => readdirSync(dir).sort();

describe('idlrpc basics', () => {
  test('the bin is an executable node script', () => {
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  test('-help lists every compiler command and exits 0', async () => {
    const run = await runCli(['-help']);
    expect(run.code).toBe(0);
    for (const usage of ['-validate <file.idl>', '-to-json <out.json|-> <file.idl>', '-format <file.idl> [-w | -check]', '-version']) {
      expect(run.stdout).toContain(`idlrpc ${usage}`);
    }
    expect(run.stderr).toBe('');
  });

  test('npm run idlrpc -- -help works too', async () => {
    const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile('npm', ['run', '--silent', 'idlrpc', '--', '-help'], { cwd: REPO_ROOT, timeout: 60_000 }, (error, stdout) =>
        resolve({ code: error ? Number(error.code) : 0, stdout }),
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('idlrpc -validate <file.idl>');
  });

  test('every flag has a double-dash spelling, which -help shows (npx takes single-dash flags for itself)', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('idlrpc -validate <file.idl>');
    expect(help.stdout).toContain('npx idlrpc --help');
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `idlrpc ${version}\n`, stderr: '' });
    const generated = await runCli(['--plugin', 'ts-client-server', '--dir=gen-dashes', '--ts-module', 'cjs', 'checkout.idl'], dir);
    expect(generated).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(dir, 'gen-dashes/client.ts'), 'utf8')).toContain('CartServiceClient');
  });

  test('-version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = await runCli(['-version']);
    expect(run).toEqual({ code: 0, stdout: `idlrpc ${version}\n`, stderr: '' });
  });

  test('no arguments and unknown commands are usage errors (exit 2)', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^idlrpc: no command given\n\n.*Usage:/s);
    const unknown = await runCli(['-frobnicate', 'x.idl']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('idlrpc: unknown command -frobnicate');
    expect(unknown.stdout).toBe('');
  });
});

describe('idlrpc -validate', () => {
  test('a valid file: exit 0 and a summary on stdout', async () => {
    const run = await runCli(['-validate', 'checkout.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: 'checkout.idl: ok (3 interfaces, 8 structs, 2 enums, 6 errors)\n', stderr: '' });
  });

  test('a file with errors: every error with file:line:column and a frame on stderr, exit 1', async () => {
    const run = await runCli(['-validate', 'broken.idl'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        "broken.idl:3:13: error: unknown type 'Item'",
        '  1 | namespace shop',
        '  2 | struct Cart {',
        '> 3 |     items []Item',
        '    |             ^^^^',
        '  4 |     total flaot',
        '',
        "broken.idl:4:11: error: unknown type 'flaot'; did you mean 'float'?",
        '  2 | struct Cart {',
        '  3 |     items []Item',
        '> 4 |     total flaot',
        '    |           ^^^^^',
        '  5 | }',
        '',
        '2 errors in broken.idl',
        '',
      ].join('\n'),
    );
  });

  test('an unknown doc tag: a located note on stderr, exit 0', async () => {
    writeFileSync(join(dir, 'tagged.idl'), 'namespace shop\n\nstruct Cart {\n    // @todo split\n    id string\n}\n');
    const run = await runCli(['-validate', 'tagged.idl'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('tagged.idl: ok (0 interfaces, 1 struct, 0 enums, 0 errors)\n');
    expect(run.stderr).toMatch(/^tagged\.idl:4:8: note: unknown doc tag '@todo': the line stays description text/);
  });

  test('an unchecked format: a located note on stderr, exit 0; a bad attribute fails, located', async () => {
    writeFileSync(join(dir, 'formats.idl'), 'namespace shop\n\nstruct Cart {\n    iban string [format="iban"]\n}\n');
    const run = await runCli(['-validate', 'formats.idl'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('formats.idl: ok (0 interfaces, 1 struct, 0 enums, 0 errors)\n');
    expect(run.stderr).toMatch(/^formats\.idl:4:25: note: format "iban" is not checked: it is kept for documentation and OpenAPI/);
    writeFileSync(join(dir, 'bounds.idl'), 'namespace shop\n\nstruct Cart {\n    qty int [min=5, max=1]\n}\n');
    const bad = await runCli(['-validate', 'bounds.idl'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bounds.idl:4:14: error: min=5 is greater than max=1: no value could meet both\n');
    expect(bad.stderr).toContain('> 4 |     qty int [min=5, max=1]\n    |              ^^^^^\n');
  });

  test('a bad @example fails, located, and the count is of errors only', async () => {
    writeFileSync(join(dir, 'example.idl'), 'namespace shop\n\nstruct Cart {\n    // @todo split\n    // @example "x"\n    id int\n}\n');
    const run = await runCli(['-validate', 'example.idl'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'example.idl:5:17: error: @example is not a value of this field: at $: expected an integer, found the string "x"',
    );
    expect(run.stderr).toContain('\n1 error in example.idl');
  });

  test('several files: the good ones pass, the exit code reports the bad one', async () => {
    const run = await runCli(['-validate', 'checkout.idl', 'syntax.idl'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('checkout.idl: ok');
    expect(run.stderr).toMatch(/^syntax\.idl:3:10: error: expected a type such as/);
  });

  test('-portable: a located warning at each use of a type other implementations do not read, exit 0', async () => {
    writeFileSync(
      join(dir, 'stamps.idl'),
      'namespace stamps\nstruct S {\n    at timestamp\n    raw map[string]bytes\n}\ninterface I {\n    f(day date) []json\n}\n',
    );
    const plain = await runCli(['-validate', 'stamps.idl'], dir);
    expect(plain).toEqual({ code: 0, stdout: 'stamps.idl: ok (1 interface, 1 struct, 0 enums, 0 errors)\n', stderr: '' });
    const run = await runCli(['-validate', 'stamps.idl', '-portable'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('stamps.idl: ok (1 interface, 1 struct, 0 enums, 0 errors)\n');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('stamps.idl:'));
    expect(lines).toEqual([
      "stamps.idl:3:8: warning: 'timestamp' is a built-in type of this implementation only: the IDL family's other implementations read it as an unknown type name",
      "stamps.idl:4:20: warning: 'bytes' is a built-in type of this implementation only: the IDL family's other implementations read it as an unknown type name",
      "stamps.idl:7:11: warning: 'date' is a built-in type of this implementation only: the IDL family's other implementations read it as an unknown type name",
      "stamps.idl:7:19: warning: 'json' is a built-in type of this implementation only: the IDL family's other implementations read it as an unknown type name",
    ]);
    expect(run.stderr).toContain('> 3 |     at timestamp\n    |        ^^^^^^^^^');
    expect(run.stderr.trimEnd().endsWith('4 portability warnings in stamps.idl')).toBe(true);
    // The playground's checkout.idl has one construct outside the family's common subset: its stream method.
    const checkout = await runCli(['-validate', 'checkout.idl', '-portable'], dir);
    expect(checkout.code).toBe(0);
    expect(checkout.stdout).toBe('checkout.idl: ok (3 interfaces, 8 structs, 2 enums, 6 errors)\n');
    expect(checkout.stderr).toContain(
      "checkout.idl:122:32: warning: stream method 'watchOrder' is a construct of this implementation only: the IDL family's other implementations cannot parse 'stream' before a return type",
    );
    expect(checkout.stderr.trimEnd().endsWith('1 portability warning in checkout.idl')).toBe(true);
  });

  test('-portable: a located warning at each attribute list and optional parameter other implementations do not read', async () => {
    writeFileSync(
      join(dir, 'lists.idl'),
      [
        'namespace lists',
        'struct S {',
        '    plain    string [optional]',
        '    quantity int [min=1, max=99]',
        '}',
        'interface I {',
        '    list(q string, cursor string [optional], perPage int [optional, default=30, max=100]) []S [maxItems=100]',
        '    count(q string [minLength=1]) int [optional]',
        '}',
        '',
      ].join('\n'),
    );
    const plain = await runCli(['-validate', 'lists.idl'], dir);
    expect(plain).toEqual({ code: 0, stdout: 'lists.idl: ok (1 interface, 1 struct, 0 enums, 0 errors)\n', stderr: '' });
    const run = await runCli(['-validate', 'lists.idl', '-portable'], dir);
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('lists.idl:'));
    expect(lines).toEqual([
      "lists.idl:4:19: warning: the attribute list of field 'quantity' holds more than optional: the IDL family's other implementations read only [optional] there",
      "lists.idl:7:20: warning: optional parameter 'cursor' has an attribute list: the IDL family's other implementations read no attribute list on a parameter (every parameter is required there)",
      "lists.idl:7:46: warning: optional parameter 'perPage' has an attribute list: the IDL family's other implementations read no attribute list on a parameter (every parameter is required there)",
      "lists.idl:7:96: warning: the attribute list of the return of 'list' holds more than optional: the IDL family's other implementations read only [optional] there",
      "lists.idl:8:11: warning: parameter 'q' has an attribute list: the IDL family's other implementations read no attribute list on a parameter (every parameter is required there)",
    ]);
    expect(run.stderr).toContain('> 4 |     quantity int [min=1, max=99]\n    |                   ^^^^^^^^^^^^');
    expect(run.stderr.trimEnd().endsWith('5 portability warnings in lists.idl')).toBe(true);
  });

  test('-portable: a located warning at the word stream of each stream method', async () => {
    writeFileSync(
      join(dir, 'streams.idl'),
      'namespace streams\nstruct Order {\n    id string\n}\ninterface I {\n    watch(id string) stream Order\n}\n',
    );
    expect(await runCli(['-validate', 'streams.idl'], dir)).toEqual({
      code: 0,
      stdout: 'streams.idl: ok (1 interface, 1 struct, 0 enums, 0 errors)\n',
      stderr: '',
    });
    const run = await runCli(['-validate', 'streams.idl', '-portable'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('streams.idl:'))).toEqual([
      "streams.idl:6:22: warning: stream method 'watch' is a construct of this implementation only: the IDL family's other implementations cannot parse 'stream' before a return type",
    ]);
    expect(run.stderr).toContain('> 6 |     watch(id string) stream Order\n    |                      ^^^^^^');
    expect(run.stderr.trimEnd().endsWith('1 portability warning in streams.idl')).toBe(true);
  });

  test('a missing file is a clear error, not a stack trace', async () => {
    const run = await runCli(['-validate', 'nope.idl'], dir);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'cannot read nope.idl: no such file\n' });
  });

  test('no file is a usage error with the usage line', async () => {
    const run = await runCli(['-validate'], dir);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'idlrpc: -validate needs at least one .idl file\nusage: idlrpc -validate <file.idl>... [-portable]\n',
    });
  });
});

describe('idlrpc -to-json', () => {
  test('writes the JSON form of docs/protocol.md §2', async () => {
    const run = await runCli(['-to-json', 'out/checkout.json', 'checkout.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    const written = readFileSync(join(dir, 'out/checkout.json'), 'utf8');
    expect(JSON.parse(written)).toEqual(toIdlJson(compileIdl(CHECKOUT, 'checkout.idl')));
    expect(written.endsWith('}\n')).toBe(true);
    expect(readdirSync(join(dir, 'out'))).toEqual(['checkout.json']);
  });

  test("'-' prints the JSON instead", async () => {
    const run = await runCli(['-to-json', '-', 'checkout.idl'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).rootNamespace).toBe('checkout');
  });

  test('bad input: exit 1, no output file, an existing one untouched, no temp files', async () => {
    const before = listing();
    const fresh = await runCli(['-to-json', 'fresh.json', 'broken.idl'], dir);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain("broken.idl:3:13: error: unknown type 'Item'");
    expect(listing()).toEqual(before);

    writeFileSync(join(dir, 'kept.json'), '{"old":true}\n');
    const kept = await runCli(['-to-json', 'kept.json', 'syntax.idl'], dir);
    expect(kept.code).toBe(1);
    expect(readFileSync(join(dir, 'kept.json'), 'utf8')).toBe('{"old":true}\n');
    expect(listing()).toEqual([...before, 'kept.json'].sort());
  });

  test('missing arguments: usage error', async () => {
    const run = await runCli(['-to-json', 'out.json'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: idlrpc -to-json <out.json|-> <file.idl>');
  });
});

describe('idlrpc -format', () => {
  const MESSY =
    '// Shop.\nnamespace shop\nstruct A {\n  // The id.\n  id string\n  longerName   []int [optional]\n}\nerrors {\n  1 E "a \\"b\\""\n  1000 Longer "c"\n}\n';
  const TIDY = [
    '// Shop.',
    'namespace shop',
    '',
    'struct A {',
    '    // The id.',
    '    id           string',
    '    longerName   []int   [optional]',
    '}',
    '',
    'errors {',
    '    1    E      "a \\"b\\""',
    '    1000 Longer "c"',
    '}',
    '',
  ].join('\n');

  test('prints the canonical layout', async () => {
    writeFileSync(join(dir, 'messy.idl'), MESSY);
    const run = await runCli(['-format', 'messy.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: TIDY, stderr: '' });
    expect(readFileSync(join(dir, 'messy.idl'), 'utf8')).toBe(MESSY);
  });

  test('-check fails on an unformatted file and passes on a formatted one', async () => {
    writeFileSync(join(dir, 'check.idl'), MESSY);
    expect((await runCli(['-format', 'check.idl', '-check'], dir)).code).toBe(1);
    writeFileSync(join(dir, 'check.idl'), TIDY);
    expect(await runCli(['-format', '-check', 'check.idl'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('-w rewrites the file in place', async () => {
    writeFileSync(join(dir, 'rewrite.idl'), MESSY);
    const run = await runCli(['-format', '-w', 'rewrite.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'rewrite.idl'), 'utf8')).toBe(TIDY);
  });

  test('-w on a symbolic link rewrites the file it points to and keeps the link', async () => {
    mkdirSync(join(dir, 'linked'), { recursive: true });
    writeFileSync(join(dir, 'linked', 'target.idl'), MESSY);
    symlinkSync(join('linked', 'target.idl'), join(dir, 'link.idl'));
    const run = await runCli(['-format', '-w', 'link.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(lstatSync(join(dir, 'link.idl')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.idl'))).toBe(join('linked', 'target.idl'));
    expect(readFileSync(join(dir, 'linked', 'target.idl'), 'utf8')).toBe(TIDY);
    expect(readdirSync(join(dir, 'linked'))).toEqual(['target.idl']);
  });

  const COMMENTED = [
    '// Header, not a doc comment.',
    '',
    'namespace shop // trailing',
    'struct A { // header',
    '  id string // the id',
    '  // standalone',
    '',
    '  name string',
    '  // end of A',
    '}',
    'interface I {',
    '  m(a int, // after a',
    '    b A) A',
    '}',
    '// end of file',
  ].join('\r\n');
  const COMMENTED_TIDY = [
    '// Header, not a doc comment.',
    '',
    'namespace shop // trailing',
    '',
    'struct A { // header',
    '    id           string // the id',
    '    // standalone',
    '',
    '    name         string',
    '    // end of A',
    '}',
    '',
    'interface I {',
    '    m(',
    '        a int, // after a',
    '        b A',
    '    ) A',
    '}',
    '',
    '// end of file',
    '',
  ].join('\n');

  test('keeps every comment: prints them without warnings', async () => {
    writeFileSync(join(dir, 'commented.idl'), COMMENTED);
    const run = await runCli(['-format', 'commented.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: COMMENTED_TIDY, stderr: '' });
  });

  test('-w rewrites a CRLF file with comments (trailing, header, standalone, end of block and file, in parameters), and -check then passes', async () => {
    writeFileSync(join(dir, 'commented-w.idl'), COMMENTED);
    const run = await runCli(['-format', '-w', 'commented-w.idl'], dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'commented-w.idl'), 'utf8')).toBe(COMMENTED_TIDY);
    expect(await runCli(['-format', '-check', 'commented-w.idl'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    const again = await runCli(['-format', '-w', 'commented-w.idl'], dir);
    expect(again).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'commented-w.idl'), 'utf8')).toBe(COMMENTED_TIDY);
  });

  test('a syntax error is reported with its position and nothing is written', async () => {
    const run = await runCli(['-format', '-w', 'syntax.idl'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^syntax\.idl:3:10: error: expected a type such as .*\n.*\|/s);
    expect(readFileSync(join(dir, 'syntax.idl'), 'utf8')).toBe('namespace shop\nstruct Cart {\n    items\n}\n');
  });

  test('-w with -check is a usage error', async () => {
    const run = await runCli(['-format', '-w', '-check', 'checkout.idl'], dir);
    expect(run.code).toBe(2);
  });
});
