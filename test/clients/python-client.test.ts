/**
 * The Python package `idlrpc -plugin py-client` generates: pyright (strict) and `mypy --strict`
 * accept it for the playground IDL (with the scenario runner, which uses it as a program would), for
 * a fixture of every construct and for one of long names; pycodestyle (PEP 8) accepts it with its
 * defaults; it imports and round-trips values with Debian's python3; the output is deterministic.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { generatePythonFiles } from '../../src/python/index.js';
import { readFileSync } from 'node:fs';
import {
  generatePythonPackage,
  mypyPath,
  pycodestyleMissing,
  pyrightPath,
  pythonMissing,
  pythonPath,
  run,
  scenarioRunnerPath,
} from './python.js';

const playgroundIdl = fileURLToPath(new URL('../../playground/checkout.idl', import.meta.url));
const fixtureIdl = fileURLToPath(new URL('./fixtures/every-construct.idl', import.meta.url));
const longNamesIdl = fileURLToPath(new URL('./fixtures/long-names.idl', import.meta.url));
const missing = pythonMissing([pythonPath, mypyPath]);
const styleMissing = pycodestyleMissing();
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** The package of an IDL in a folder with a strict pyrightconfig.json. */
async function packageOf(idlPath: string): Promise<string> {
  const folder = await generatePythonPackage(idlPath);
  folders.push(folder);
  await writeFile(path.join(folder, 'pyrightconfig.json'), JSON.stringify({ typeCheckingMode: 'strict', pythonVersion: '3.11' }));
  return folder;
}

async function expectTypeChecked(folder: string, packageName: string, extra: string[] = []): Promise<void> {
  const pyright = await run(pyrightPath, [], { cwd: folder, timeoutMs: 120_000 });
  expect(pyright.stdout).toContain('0 errors, 0 warnings, 0 informations');
  expect(pyright.code).toBe(0);
  const mypy = await run(mypyPath, ['--strict', '--no-incremental', packageName, ...extra], { cwd: folder, timeoutMs: 120_000 });
  expect(mypy.stdout).toMatch(/^Success: no issues found/);
  expect(mypy.code).toBe(0);
}

describe('the generated Python package', () => {
  let playground: string;
  let fixture: string;
  let longNames: string;
  beforeAll(async () => {
    if (missing) return;
    playground = await packageOf(playgroundIdl);
    await copyFile(scenarioRunnerPath, path.join(playground, 'python_scenarios.py'));
    fixture = await packageOf(fixtureIdl);
    longNames = await packageOf(longNamesIdl);
  });

  it('of the playground IDL is clean under pyright strict and mypy --strict, with the scenario runner', async (context) => {
    if (missing) return context.skip(missing);
    await expectTypeChecked(playground, 'checkout', ['python_scenarios.py']);
  }, 180_000);

  it('of a fixture of every construct is clean under pyright strict and mypy --strict', async (context) => {
    if (missing) return context.skip(missing);
    await expectTypeChecked(fixture, 'json_');
  }, 180_000);

  it('of a fixture of long names and docs (wrapped lines) is clean under pyright strict and mypy --strict', async (context) => {
    if (missing) return context.skip(missing);
    await expectTypeChecked(longNames, 'long_names');
  }, 180_000);

  it('renames what Python cannot declare and keeps the wire names', async (context) => {
    if (missing) return context.skip(missing);
    const script = `
import datetime, json, json_
at = datetime.datetime(2026, 1, 31, 12, 0, tzinfo=datetime.timezone.utc)
g = json_.Global(id_="a", str_="s", names=["n"], product_id="p", product_id_=1, self=True, from_=json_.Class.CREDIT_CARD_, at=at,
                 blob=b"\\x00\\xff", extra=None, tags={"x": [json_.common.Money(amount=1, currency="EUR")]})
wire = json_._write_global(g)
print(json.dumps(wire, sort_keys=True))
assert json_._read_global(json.loads(json.dumps(wire)), "result") == g
card = json_.PaymentCard(number="4242", expires=at)
print(json.dumps(json_._write_payment(card), sort_keys=True))
assert json_._read_payment(json_._write_payment(card), "result") == card
print(json_.TypeError_.CODE, json_.NoneError.NAME, json_.DefClient.lambda_.__name__, json_.common.NotFoundError.CODE)
print(json_.__doc__)
`;
    const result = await run(pythonPath, ['-c', script], { cwd: fixture });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      '{"at": "2026-01-31T12:00:00+00:00", "blob": "AP8=", "extra": null, "from": "creditCard", "id": "a", "names": ["n"], "productId": "p", "product_id": 1, "self": true, "str": "s", "tags": {"x": [{"amount": 1, "currency": "EUR"}]}}',
      '{"expires": "2026-01-31T12:00:00+00:00", "number": "4242", "type": "card"}',
      '3001 None lambda_ 2001',
      // The docstring wraps within 79 columns.
      'Every construct the Python generator maps: "quotes", \\backslashes\\ and',
      '"""triple quotes""".',
      '',
      '',
    ]);
  });
});

describe('the generated Python package follows PEP 8', () => {
  /** pycodestyle's report on the package of an IDL, with its defaults (79 columns, its default ignore list). */
  async function pycodestyle(idlPath: string): Promise<{ folder: string; report: string; code: number | null }> {
    const folder = await generatePythonPackage(idlPath);
    folders.push(folder);
    const result = await run(pythonPath, ['-m', 'pycodestyle', '.'], { cwd: folder });
    expect(result.stderr).toBe('');
    return { folder, report: result.stdout, code: result.code };
  }

  for (const [label, idlPath] of [
    ['the playground IDL', playgroundIdl],
    ['the fixture of every construct', fixtureIdl],
  ]) {
    it(`for ${label}, without a single line excused (noqa)`, async (context) => {
      if (styleMissing) return context.skip(styleMissing);
      const { report, code } = await pycodestyle(idlPath);
      expect(report).toBe('');
      expect(code).toBe(0);
      const model = compileIdl(readFileSync(idlPath, 'utf8'), idlPath);
      for (const [name, text] of generatePythonFiles(model, { sourceFile: path.basename(idlPath) })) {
        expect({ name, noqa: text.includes('noqa') }).toEqual({ name, noqa: false });
      }
    });
  }

  it('for long names and doc comments: wrapped, and only a line holding one name too long for any line is excused', async (context) => {
    if (styleMissing) return context.skip(styleMissing);
    const { report, code } = await pycodestyle(longNamesIdl);
    expect(report).toBe('');
    expect(code).toBe(0);
    const model = compileIdl(readFileSync(longNamesIdl, 'utf8'), longNamesIdl);
    const text = generatePythonFiles(model, { sourceFile: 'long-names.idl' }).get('long_names/__init__.py')!;
    // A docstring wraps at spaces; a word longer than a line stays whole on a line of its own.
    expect(text).toContain('\nhttps://example.com/a/very/long/path/that/cannot/be/broken/anywhere/at/all/index.html\n');
    // A long message is split into adjacent literals; a long parameter list is one parameter a line.
    expect(text).toMatch(/DESCRIPTION: ClassVar\[str\] = \(\n {8}"the payment provider rejected the transaction for /);
    expect(text).toContain('        self,\n        customer_account_identifier: str,\n');
    for (const line of text.split('\n').filter((line) => line.includes('# noqa: E501'))) {
      const code = line.slice(0, line.indexOf('  # noqa: E501'));
      expect(code.length).toBeGreaterThan(79);
      // What is left once the longest name or literal is taken out fits: that one name is why the line is long.
      const longest = Math.max(...(code.match(/"[^"]*"|[A-Za-z_][A-Za-z0-9_.]*/g) ?? []).map((token) => token.length));
      expect({ line, tooLong: longest > 30 }).toEqual({ line, tooLong: true });
    }
  });
});

describe('the generated Python package of a multi-file IDL', () => {
  it('has one module per namespace, which import one another', async (context) => {
    if (missing) return context.skip(missing);
    const folder = await generatePythonPackage(fileURLToPath(new URL('../idl/fixtures/multi-file/shop.idl', import.meta.url)));
    folders.push(folder);
    const script =
      'import shop, shop.common, shop.inventory\nprint(shop.OrderServiceClient.place.__name__, shop.inventory.InventoryServiceClient.__name__, shop.common.Money.__name__)';
    const result = await run(pythonPath, ['-c', script], { cwd: folder });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('place InventoryServiceClient Money\n');
  });
});

describe('text from the IDL in generated Python', () => {
  it('cannot end a docstring, comment or string early: the package compiles and keeps the text', async (context) => {
    if (missing) return context.skip(missing);
    // NUL, a vertical tab, a line separator, a backslash, quotes, a lone surrogate (U+FFFD once in a UTF-8 file), NEL.
    const hostile = 'a\u0000b\u000bc\u2028d\\"""e\'\'\'f\ud800g\u0085h';
    const idl = [
      `// ${hostile}`,
      'namespace odd',
      '',
      `// ${hostile}`,
      'struct S {',
      `    // ${hostile}`,
      '    x  string',
      '}',
      '',
      `// ${hostile}`,
      'union U {',
      '    s  S',
      '}',
      '',
      'errors {',
      `    1 Odd "${hostile.replace('\u0000', '').replace(/[\\"]/g, (char) => `\\${char}`)}"`,
      '}',
    ].join('\n');
    const idlFolder = await mkdtemp(path.join(tmpdir(), 'idlrpc-py-idl-'));
    folders.push(idlFolder);
    await writeFile(path.join(idlFolder, 'odd.idl'), idl);
    const folder = await generatePythonPackage(path.join(idlFolder, 'odd.idl'));
    folders.push(folder);
    const script = 'import odd\nprint(ascii(odd.__doc__))\nprint(ascii(odd.S.__doc__))\nprint(ascii(odd.OddError.DESCRIPTION))';
    const result = await run(pythonPath, ['-c', script], { cwd: folder });
    expect(result.stderr).toBe('');
    const expected = String.raw`'a\x00b\x0bc\u2028d\\"""e\'\'\'f\ufffdg\x85h'`;
    expect(result.stdout.split('\n')).toEqual([expected, expected, expected.replace('\\x00', ''), '']);
    expect(result.code).toBe(0);
  });
});

describe('Python generation', () => {
  it('is deterministic and starts every module with the generated header', () => {
    const generate = () =>
      generatePythonFiles(compileIdl(readFileSync(fixtureIdl, 'utf8'), fixtureIdl), { sourceFile: 'every-construct.idl' });
    const first = generate();
    expect([...first.keys()]).toEqual(['json_/__init__.py', 'json_/common.py', 'json_/empty.py', 'json_/py.typed', 'json_/rpc_runtime.py']);
    expect(generate()).toEqual(first);
    for (const [name, text] of first) {
      if (name.endsWith('.py'))
        expect(text.split('\n')[0]).toMatch(/^# @generated by idlrpc \S+ from every-construct\.idl\. Do not edit\.$/);
    }
  });
});
