import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dtsMapFileOf } from '../codegen/declaration-files.js';
import { compileIdlSource, dtsFileOf } from '../codegen/idl-module.js';
import { compileIdl } from '../idl/index.js';
import type { IdlModel } from '../idl/model.js';
import { compileIdlFile } from './compiler.js';
import { writeImportedDts } from './imported-dts.js';

const compile = (file: string) => compileIdlFile(file, 1024 * 1024, undefined);

const COMMON = 'namespace common\n\nstruct Money {\n    amount  int\n}\n\nerrors {\n    3001 NotFound  "not found"\n}\n';
const SHARED = 'struct Note {\n    text  string\n}\n';
const ORDERS =
  'namespace orders\n\nimport "common.idl"\nimport "shared.idl"\n\nstruct Order {\n    total  common.Money\n    note   Note\n}\n';

let dir: string;
let files: { orders: string; common: string; shared: string };

/** The checked model of orders.idl, which imports common.idl (a namespace) and shared.idl (merged). */
function ordersModel(): IdlModel {
  return compileIdl(readFileSync(files.orders, 'utf8'), files.orders);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'imported-dts-'));
  files = { orders: path.join(dir, 'orders.idl'), common: path.join(dir, 'common.idl'), shared: path.join(dir, 'shared.idl') };
  writeFileSync(files.orders, ORDERS);
  writeFileSync(files.common, COMMON);
  writeFileSync(files.shared, SHARED);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('writeImportedDts', () => {
  it('writes the .d.ts of an imported namespace as if it were loaded itself; a merged file gets none', async () => {
    expect(await writeImportedDts(ordersModel().files, compile, () => true, true)).toEqual([]);
    const compiled = compileIdlSource(COMMON, files.common);
    expect(readFileSync(dtsFileOf(files.common), 'utf8')).toBe(`${compiled.dts}//# sourceMappingURL=common.idl.d.ts.map\n`);
    expect(readFileSync(dtsMapFileOf(files.common), 'utf8')).toBe(compiled.dtsMap);
    await expect(stat(dtsFileOf(files.shared))).rejects.toThrow(/ENOENT/);
    // The importer's own .d.ts is the loader's job, not this one's.
    await expect(stat(dtsFileOf(files.orders))).rejects.toThrow(/ENOENT/);
  });

  it('writes the .d.ts alone, with no link to a map, without declarationMap', async () => {
    expect(await writeImportedDts(ordersModel().files, compile, () => true, false)).toEqual([]);
    expect(readFileSync(dtsFileOf(files.common), 'utf8')).toBe(compileIdlSource(COMMON, files.common).dts);
    await expect(stat(dtsMapFileOf(files.common))).rejects.toThrow(/ENOENT/);
  });

  it('writes nothing beside a file the caller does not allow, and leaves an unchanged file untouched', async () => {
    expect(await writeImportedDts(ordersModel().files, compile, (file) => file !== files.common, true)).toEqual([]);
    await expect(stat(dtsFileOf(files.common))).rejects.toThrow(/ENOENT/);

    await writeImportedDts(ordersModel().files, compile, () => true, true);
    const written = await stat(dtsFileOf(files.common));
    const writtenMap = await stat(dtsMapFileOf(files.common));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeImportedDts(ordersModel().files, compile, () => true, true);
    expect((await stat(dtsFileOf(files.common))).mtimeMs).toBe(written.mtimeMs);
    expect((await stat(dtsMapFileOf(files.common))).mtimeMs).toBe(writtenMap.mtimeMs);
  });

  it('reports an imported file that does not compile on its own, with its file:line:column, and writes nothing for it', async () => {
    const model = ordersModel();
    // Broken after the importer compiled (an edit racing the build).
    writeFileSync(files.common, COMMON.replace('amount  int', 'amount  innt'));
    const problems = await writeImportedDts(model.files, compile, () => true, true);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${dtsFileOf(files.common)} not written`);
    expect(problems[0]).toContain(`${files.common}:4:13`);
    await expect(stat(dtsFileOf(files.common))).rejects.toThrow(/ENOENT/);
  });
});
