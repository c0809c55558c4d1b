/**
 * Several files (docs/idl.md, "Several files"): `import "path"` loads the files a root file names,
 * qualifies the names of imported namespaces, and reports every problem of an import at its line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { compileIdlSource, IdlModuleError } from '../../src/codegen/idl-module.js';
import { formatDiagnostics } from '../../src/idl/code-frame.js';
import { compileIdl, tryCompileIdl } from '../../src/idl/compile.js';
import { printIdl } from '../../src/idl/format.js';
import { canonicalContractText, toIdlJson } from '../../src/idl/json.js';
import { parse } from '../../src/idl/parser.js';
import { memoryHost } from './memory-host.js';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'multi-file');

/** `file:line:column code message` of every diagnostic of compiling `root` among `files`. */
function diagnosticsOf(files: Record<string, string>, root = 'root.idl'): string[] {
  const result = tryCompileIdl(files[root], root, { host: memoryHost(files) });
  expect(result.model).toBeUndefined();
  return result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
}

describe('the three-file fixture (a root, a shared namespace imported by both, a second namespace)', () => {
  const result = tryCompileIdl(readFileSync(path.join(fixtures, 'shop.idl'), 'utf8'), path.join(fixtures, 'shop.idl'));
  const json = toIdlJson(result.model!);

  it('compiles, loading each file once, root first then in import order', () => {
    expect(result.diagnostics).toEqual([]);
    expect(result.files.map((file) => path.basename(file))).toEqual(['shop.idl', 'common.idl', 'inventory.idl']);
    expect(result.model!.files.map((file) => [path.basename(file.fileName), file.namespace])).toEqual([
      ['shop.idl', undefined],
      ['common.idl', 'common'],
      ['inventory.idl', 'inventory'],
    ]);
  });

  it('names the root types plainly and imported ones qualified, every reference resolved', () => {
    expect(json.rootNamespace).toBe('shop');
    expect(json.structs!.map((s) => [s.name, s.namespace, s.extends])).toEqual([
      ['OrderLine', 'shop', undefined],
      ['Order', 'shop', undefined],
      ['common.Money', 'common', undefined],
      ['common.Page', 'common', undefined],
      ['inventory.Stock', 'inventory', undefined],
      ['inventory.ReservableStock', 'inventory', 'inventory.Stock'],
    ]);
    expect(json.enums!.map((e) => e.name)).toEqual(['common.Currency']);
    const money = json.structs!.find((s) => s.name === 'common.Money')!;
    expect(money.fields![1].type).toEqual({ userDefined: 'common.Currency' });
    const stock = json.structs!.find((s) => s.name === 'inventory.Stock')!;
    expect(stock.fields![1].type).toEqual({ userDefined: 'common.Money' });
    expect(json.errors!.map((e) => [e.name, e.namespace, e.code])).toEqual([
      ['shop.OutOfStock', 'shop', 4001],
      ['common.NotFound', 'common', 3001],
      ['common.Invalid', 'common', 3002],
    ]);
  });

  it('registers an imported interface under its qualified name, its raises qualified', () => {
    expect(json.interfaces!.map((i) => [i.name, i.namespace])).toEqual([
      ['OrderService', 'shop'],
      ['inventory.InventoryService', 'inventory'],
    ]);
    const getStock = json.interfaces![1].methods!.find((m) => m.name === 'getStock')!;
    expect(getStock.returnType).toEqual({ userDefined: 'inventory.Stock' });
    expect(getStock.raises).toEqual(['common.NotFound']);
    expect(json.interfaces![0].methods![0].raises).toEqual(['common.NotFound', 'OutOfStock']);
  });

  it("computes the checksum over every file with the family's `fq` (namespace before a qualified name too)", () => {
    const text = canonicalContractText(result.model!);
    expect(text).toContain('struct:common.common.Money\n  field:amount:int\n  field:currency:common.Currency\n');
    expect(text).toContain('interface:inventory.inventory.InventoryService\n');
    expect(text).toContain('  field:stock:inventory.Stock\n');
    expect(text).toContain('error:common.Invalid:3002\nerror:common.NotFound:3001\nerror:shop.OutOfStock:4001\n');
    expect(json.checksum).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('gives the same JSON form when the files are read through a host', () => {
    const files = Object.fromEntries(
      ['shop.idl', 'common.idl', 'inventory.idl'].map((name) => [name, readFileSync(path.join(fixtures, name), 'utf8')]),
    );
    const fromMemory = toIdlJson(compileIdl(files['shop.idl'], 'shop.idl', { host: memoryHost(files) }));
    expect(fromMemory).toEqual(json);
  });
});

describe('language rules of imports', () => {
  it('accepts imports anywhere at top level, and loads a file imported twice once', () => {
    const files = {
      'root.idl': 'import "a.idl"\nnamespace root\nstruct R {\n    a a.A\n}\nimport "b.idl"\nimport "./a.idl"\n',
      'a.idl': 'namespace a\nstruct A {\n    x int\n}\n',
      'b.idl': 'namespace b\nimport "a.idl"\nstruct B {\n    a a.A\n}\n',
    };
    const result = tryCompileIdl(files['root.idl'], 'root.idl', { host: memoryHost(files) });
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toEqual(['root.idl', 'a.idl', 'b.idl']);
  });

  it('merges an imported file without a namespace into its importer, unqualified', () => {
    const files = {
      'root.idl': 'namespace root\nimport "shared.idl"\nstruct R {\n    s Shared\n}\n',
      'shared.idl': 'struct Shared {\n    x int\n}\n',
    };
    const json = toIdlJson(compileIdl(files['root.idl'], 'root.idl', { host: memoryHost(files) }));
    expect(json.structs!.map((s) => [s.name, s.namespace])).toEqual([
      ['R', 'root'],
      ['Shared', 'root'],
    ]);
  });

  it('reads a qualified reference to the root namespace as the plain name', () => {
    const files = {
      'root.idl': 'namespace root\nimport "a.idl"\nstruct R {\n    x root.Q\n}\nstruct Q {\n    y int\n}\n',
      'a.idl': 'namespace a\nimport "root.idl"\n',
    };
    // a.idl importing the root closes a cycle: the rule holds for the root's own qualified names only.
    const json = toIdlJson(
      compileIdl('namespace root\nstruct R {\n    x Q\n    y root.Q\n}\nstruct Q {\n    y int\n}\nimport "a.idl"\n', 'root.idl', {
        host: memoryHost({ 'a.idl': 'namespace a\n' }),
      }),
    );
    expect(json.structs![0].fields!.map((f) => f.type)).toEqual([{ userDefined: 'Q' }, { userDefined: 'Q' }]);
    expect(diagnosticsOf(files)).toEqual(['a.idl:2:8 import-cycle import cycle: root.idl -> a.idl -> root.idl']);
  });

  it('prints imports together after the namespace (the formatter), and reads its output back the same', () => {
    const text = 'import "b.idl"\nnamespace root\n\nstruct R {\n    a a.A\n}\n\n// the shared types\nimport "a.idl" // first\n';
    const printed = printIdl(parse(text, 'root.idl').file);
    expect(printed).toMatch(
      /^namespace root\n\nimport "b.idl"\n\/\/ the shared types\nimport "a.idl" \/\/ first\n\nstruct R \{\n {4}a +a\.A\n\}\n$/,
    );
    expect(printIdl(parse(printed, 'root.idl').file)).toBe(printed);
  });
});

describe('bad imports: one exact diagnostic at the place to fix', () => {
  const table: { name: string; files: Record<string, string>; expected: string[] }[] = [
    {
      name: 'missing file',
      files: { 'root.idl': 'namespace root\nimport "gone.idl"\n' },
      expected: ['root.idl:2:8 import-unreadable cannot import "gone.idl": no such file'],
    },
    {
      name: 'import cycle',
      files: {
        'root.idl': 'namespace root\nimport "a.idl"\n',
        'a.idl': 'namespace a\nimport "b.idl"\n',
        'b.idl': 'namespace b\n\nimport "a.idl"\n',
      },
      expected: ['b.idl:3:8 import-cycle import cycle: a.idl -> b.idl -> a.idl'],
    },
    {
      name: 'unqualified name of an imported namespace',
      files: {
        'root.idl': 'namespace root\nimport "common.idl"\nstruct R {\n    m Money\n}\n',
        'common.idl': 'namespace common\nstruct Money {\n    amount int\n}\n',
      },
      expected: ["root.idl:4:7 unknown-type unknown type 'Money'; names of an imported namespace are written qualified: 'common.Money'"],
    },
    {
      name: 'unqualified error of an imported namespace',
      files: {
        'root.idl': 'namespace root\nimport "common.idl"\ninterface S {\n    get() int raises(NotFound)\n}\n',
        'common.idl': 'namespace common\nerrors {\n    3001 NotFound "not found"\n}\n',
      },
      expected: [
        "root.idl:4:22 unknown-error 'NotFound' is not a declared error; names of an imported namespace are written qualified: 'common.NotFound'",
      ],
    },
    {
      name: 'name declared twice across files (reported at both places)',
      files: {
        'root.idl': 'namespace root\nimport "shared.idl"\nstruct Money {\n    amount int\n}\n',
        'shared.idl': '\nstruct Money {\n    cents int\n}\n',
      },
      expected: [
        "root.idl:3:8 duplicate-type 'Money' is declared again in shared.idl on line 2",
        "shared.idl:2:8 duplicate-type 'Money' is already declared as a struct in root.idl on line 3",
      ],
    },
    {
      name: 'namespace of the root declared again',
      files: { 'root.idl': 'namespace root\nimport "other.idl"\n', 'other.idl': 'namespace root\n' },
      expected: ["root.idl:2:8 duplicate-namespace namespace 'root' is already declared in root.idl: other.idl declares it too"],
    },
    {
      name: 'namespace declared by two imported files',
      files: {
        'root.idl': 'namespace root\nimport "a.idl"\n\nimport "b.idl"\n',
        'a.idl': 'namespace common\n',
        'b.idl': 'namespace common\n',
      },
      expected: ["root.idl:4:8 duplicate-namespace namespace 'common' is already declared in a.idl: b.idl declares it too"],
    },
    {
      name: 'file that is not IDL',
      files: { 'root.idl': 'namespace root\nimport "schema.json"\n', 'schema.json': '{}' },
      expected: ['root.idl:2:8 import-not-idl cannot import "schema.json": not an IDL file (the name must end in .idl)'],
    },
    {
      name: 'binary file named .idl',
      files: { 'root.idl': 'namespace root\nimport "logo.idl"\n', 'logo.idl': '\u0089PNG\u0000\u0000' },
      expected: ['root.idl:2:8 import-not-idl cannot import "logo.idl": not an IDL file (it holds binary data)'],
    },
    {
      name: 'extends cycle across files (a file merged into its importer)',
      files: {
        'root.idl': 'namespace root\nimport "shared.idl"\nstruct B extends A {\n    b int\n}\n',
        'shared.idl': 'struct A extends B {\n    a int\n}\n',
      },
      expected: ["root.idl:3:18 extends-cycle struct 'B' extends itself: B -> A -> B"],
    },
    {
      name: 'required-field cycle across files',
      files: {
        'root.idl': 'namespace root\nimport "shared.idl"\nstruct B {\n    a A\n}\n',
        'shared.idl': 'struct A {\n    b B\n}\n',
      },
      expected: [
        "root.idl:4:5 field-cycle struct 'B' can never be built: its required fields lead back to it (B.a -> A.b -> B); mark one of them [optional]",
      ],
    },
    {
      name: 'syntax error in an imported file',
      files: { 'root.idl': 'namespace root\nimport "a.idl"\n', 'a.idl': 'namespace a\nstruct {\n}\n' },
      expected: ['a.idl:2:8 syntax expected a struct name'],
    },
  ];

  it.each(table)('$name', ({ files, expected }) => {
    expect(diagnosticsOf(files)).toEqual(expected);
  });

  describe('on disk', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'idl-imports-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it('a directory named like an IDL file', () => {
      const root = path.join(folder, 'dir-root.idl');
      writeFileSync(root, 'namespace root\nimport "folder.idl"\n');
      mkdirSync(path.join(folder, 'folder.idl'));
      const result = tryCompileIdl(readFileSync(root, 'utf8'), root);
      expect(result.diagnostics.map((d) => `${path.basename(d.file)}:${d.line}:${d.column} ${d.message}`)).toEqual([
        'dir-root.idl:2:8 cannot import "folder.idl": it is a directory',
      ]);
    });

    it('names a missing imported file among the files to watch, so creating it rebuilds', () => {
      const root = path.join(folder, 'watch-root.idl');
      const text = 'namespace watchRoot\nimport "later.idl"\n';
      let failure: unknown;
      try {
        compileIdlSource(text, root);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(IdlModuleError);
      expect((failure as IdlModuleError).files).toEqual([root, path.join(folder, 'later.idl')]);
      writeFileSync(path.join(folder, 'later.idl'), 'namespace later\n');
      expect(compileIdlSource(text, root).files).toEqual([root, path.join(folder, 'later.idl')]);
    });

    it('frames each diagnostic in its own file', () => {
      const root = path.join(folder, 'framed.idl');
      writeFileSync(path.join(folder, 'framed-common.idl'), 'namespace framedCommon\nstruct A {\n    b Bogus\n}\n');
      writeFileSync(root, 'namespace framed\nimport "framed-common.idl"\n');
      const result = tryCompileIdl(readFileSync(root, 'utf8'), root);
      const text = formatDiagnostics(result.diagnostics, result.sources);
      expect(text).toContain("framed-common.idl:3:7: error: unknown type 'Bogus'");
      expect(text).toContain('> 3 |     b Bogus\n    |       ^^^^^');
    });
  });
});

describe('the idlrpc command with imports', () => {
  const run = async (args: string[], cwd: string) => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), cwd });
    return { code, stdout, stderr };
  };

  it('-validate and -to-json read the imported files relative to the root file', async () => {
    const validated = await run(['-validate', 'shop.idl'], fixtures);
    expect(validated).toMatchObject({ code: 0, stderr: '' });
    expect(validated.stdout).toBe('shop.idl: ok (2 interfaces, 6 structs, 1 enum, 3 errors)\n');
    const json = await run(['-to-json', '-', 'multi-file/shop.idl'], path.dirname(fixtures));
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).interfaces.map((i: { name: string }) => i.name)).toEqual(['OrderService', 'inventory.InventoryService']);
  });

  it('-validate reports a broken import at its line, with a code frame, and exits 1', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'idl-cli-imports-'));
    try {
      writeFileSync(path.join(folder, 'root.idl'), 'namespace root\n\nimport "missing.idl"\n');
      const result = await run(['-validate', 'root.idl'], folder);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('root.idl:3:8: error: cannot import "missing.idl": no such file\n');
      expect(result.stderr).toContain('> 3 | import "missing.idl"');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
