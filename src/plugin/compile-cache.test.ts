import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileIdlSource } from '../codegen/idl-module.js';
import { clearPhaseMemos, phaseMemoStats } from '../codegen/phase-memo.js';
import { ownManifest } from '../own-package.js';
import { compileCacheStats, compileIdlFileCached, resetCompileCache } from './compile-cache.js';
import { DeferredDiskWrites } from './deferred-disk-writes.js';

const COMMON = 'namespace common\n\nstruct Money {\n    amount  int\n}\n';
const ORDERS = 'namespace orders\n\nimport "common.idl"\n\nstruct Order {\n    total  common.Money\n}\n';
const MAX = 1024 * 1024;

let dir: string;
let cache: string;
let orders: string;
let common: string;

/** A new process as far as the cache can tell: nothing in memory, the disk folder as it is. */
function newProcess() {
  resetCompileCache();
}

const compile = () => compileIdlFileCached(orders, MAX, cache);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'compile-cache-'));
  cache = path.join(dir, 'cache');
  orders = path.join(dir, 'orders.idl');
  common = path.join(dir, 'common.idl');
  writeFileSync(orders, ORDERS);
  writeFileSync(common, COMMON);
  resetCompileCache();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the compile cache', () => {
  it('compiles once per content: again in the process from memory, in the next process from disk', async () => {
    const first = await compile();
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 1 });
    const expected = compileIdlSource(ORDERS, orders);
    expect(first).toMatchObject({ file: orders, files: [orders, common], js: expected.js, dts: expected.dts });

    expect((await compile()).js).toBe(expected.js);
    expect(compileCacheStats).toEqual({ memoryHits: 1, diskHits: 0, misses: 1 });

    newProcess();
    const fromDisk = await compile();
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 1, misses: 0 });
    expect(fromDisk).toMatchObject({ files: [orders, common], js: expected.js, dts: expected.dts });
    expect(fromDisk.programFiles).toEqual(expected.model.files);
    // The model is parsed and checked on demand, the same as the compiled one.
    const model = await fromDisk.model();
    expect(model.structs.map((s) => s.name)).toEqual(expected.model.structs.map((s) => s.name));
    expect(compileCacheStats.misses).toBe(0);
  });

  it('misses when the module’s own text or an imported file’s changes, in memory and on disk', async () => {
    await compile();
    writeFileSync(orders, ORDERS.replace('total', 'sum'));
    expect((await compile()).js).toContain('sum');
    expect(compileCacheStats.misses).toBe(2);

    writeFileSync(common, COMMON.replace('amount', 'cents'));
    expect((await compile()).js).toContain('cents');
    expect(compileCacheStats.misses).toBe(3);

    newProcess();
    writeFileSync(common, COMMON.replace('amount', 'pennies'));
    expect((await compile()).js).toContain('pennies');
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 1 });
  });

  it('keeps the newest two versions of a file in memory: an edit undone is a hit, older ones compile again', async () => {
    const versions = ['total', 'sum', 'amount'].map((name) => ORDERS.replace('total', name));
    for (const version of versions) {
      writeFileSync(orders, version);
      await compileIdlFileCached(orders, MAX, undefined);
    }
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 3 });
    writeFileSync(orders, versions[1]);
    expect((await compileIdlFileCached(orders, MAX, undefined)).js).toContain('sum');
    expect(compileCacheStats).toEqual({ memoryHits: 1, diskHits: 0, misses: 3 });
    // The first version was dropped when the third came.
    writeFileSync(orders, versions[0]);
    expect((await compileIdlFileCached(orders, MAX, undefined)).js).toContain('total');
    expect(compileCacheStats).toEqual({ memoryHits: 1, diskHits: 0, misses: 4 });
    // Another file's versions are its own: the common file, compiled as a module, does not push them out.
    await compileIdlFileCached(common, MAX, undefined);
    writeFileSync(orders, versions[1]);
    await compileIdlFileCached(orders, MAX, undefined);
    expect(compileCacheStats).toEqual({ memoryHits: 2, diskHits: 0, misses: 5 });
  });

  it('misses for another version of the package', async () => {
    await compile();
    newProcess();
    const manifest = ownManifest();
    const version = manifest.version;
    manifest.version = `${version}-next`;
    try {
      await compile();
    } finally {
      manifest.version = version;
    }
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 1 });
  });

  it('takes a corrupt or partial entry for a miss and writes it anew', async () => {
    const expected = await compile();
    const [entry] = readdirSync(cache);
    const entryFile = path.join(cache, entry);
    const whole = readFileSync(entryFile, 'utf8');
    for (const damaged of [whole.slice(0, whole.length / 2), '', '{"format":1}', whole.replace('"js":', '"jz":')]) {
      writeFileSync(entryFile, damaged);
      newProcess();
      expect((await compile()).js).toBe(expected.js);
      expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 1 });
    }
    newProcess();
    await compile();
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 1, misses: 0 });
  });

  it('keeps nothing on disk without a folder, and nothing for a broken file', async () => {
    await compileIdlFileCached(orders, MAX, undefined);
    writeFileSync(orders, ORDERS.replace('common.Money', 'common.Mony'));
    await expect(compile()).rejects.toThrow(/Mony/);
    await expect(compile()).rejects.toThrow(/Mony/);
    expect(compileCacheStats.misses).toBe(3);
    expect(() => readdirSync(cache)).toThrow(/ENOENT/);
  });

  it('keeps a generation for reuse only when the file is compiled again: after an edit, or in the dev server', async () => {
    clearPhaseMemos();
    const edit = (n: number) => writeFileSync(orders, `${ORDERS}\nstruct Edited${n} {\n    at  int\n}\n`);
    // A build compiles each file once: nothing kept.
    await compile();
    expect(phaseMemoStats).toEqual({ reused: 0, run: 0 });
    // A watch build's rebuild after an edit keeps its phases, and the next one reuses them.
    edit(1);
    await compile();
    expect(phaseMemoStats.run).toBeGreaterThan(0);
    edit(2);
    await compile();
    expect(phaseMemoStats.reused).toBeGreaterThan(0);
    // The dev server (its writes deferred) keeps the first compile of a file already.
    newProcess();
    clearPhaseMemos();
    await compileIdlFileCached(common, MAX, undefined, new DeferredDiskWrites(60_000));
    expect(phaseMemoStats.run).toBeGreaterThan(0);
  });

  it('with deferred writes, returns the module first and writes only the newest entry when flushed', async () => {
    const writes = new DeferredDiskWrites(60_000);
    await compileIdlFileCached(orders, MAX, cache, writes);
    writeFileSync(orders, `${ORDERS}\nstruct Edited {\n    at  int\n}\n`);
    const edited = await compileIdlFileCached(orders, MAX, cache, writes);
    expect(() => readdirSync(cache)).toThrow(/ENOENT/);
    await writes.flush();
    expect(readdirSync(cache)).toHaveLength(1);
    newProcess();
    expect((await compile()).js).toBe(edited.js);
    expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 1, misses: 0 });
  });
});
