import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdlModel } from '../idl/model.js';
import { compileIdlFileCached, resetCompileCache } from './compile-cache.js';
import { openApiDocument } from './compiler.js';
import { cachedDocument, type DocumentRequest, documentCacheStats, resetDocumentCache } from './document-cache.js';
import { openApiAsset } from './openapi-asset.js';

const COMMON = 'namespace common\n\nstruct Money {\n    amount  int\n}\n';
const ORDERS = 'namespace orders\n\nimport "common.idl"\n\nstruct Order {\n    total  common.Money\n}\n';
const SHOP = 'namespace shop\n\nstruct Cart {\n    items  int\n}\n';
const MAX = 1024 * 1024;
const OPTIONS = { version: '3.1', info: {} };

let dir: string;
let cache: string;

function writeIdl(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The modules of orders.idl and shop.idl as they are on disk now. */
const loadModules = () => Promise.all(['orders.idl', 'shop.idl'].map((name) => compileIdlFileCached(path.join(dir, name), MAX, cache)));

/** A converter that counts its calls and names the structs it was given. */
function countingConverter() {
  const calls: string[][] = [];
  const convert = async (models: IdlModel[]) => {
    const names = models.flatMap((model) => model.structs.map((struct) => struct.name.text)).sort();
    calls.push(names);
    return { source: JSON.stringify(names), warnings: ['a warning'] };
  };
  return { calls, convert };
}

async function request(options: unknown = OPTIONS, kind: DocumentRequest['kind'] = 'openapi'): Promise<DocumentRequest> {
  return { kind, options, modules: await loadModules(), diskFolder: cache };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'document-cache-'));
  cache = path.join(dir, 'cache');
  writeIdl('common.idl', COMMON);
  writeIdl('orders.idl', ORDERS);
  writeIdl('shop.idl', SHOP);
  resetCompileCache();
  resetDocumentCache();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the document cache', () => {
  it('converts once per content: again in the process from memory, in the next process from disk', async () => {
    const { calls, convert } = countingConverter();
    const first = await cachedDocument(await request(), convert);
    expect(calls).toEqual([['Cart', 'Order', 'common.Money']]);
    expect(await cachedDocument(await request(), convert)).toEqual(first);
    expect(calls).toHaveLength(1);
    expect(documentCacheStats).toEqual({ memoryHits: 1, diskHits: 0, misses: 1 });

    resetCompileCache();
    resetDocumentCache();
    const modules = await loadModules();
    // A hit needs no model: the modules from the disk cache are never parsed and checked.
    const withoutModels = modules.map((module) => ({ ...module, model: () => Promise.reject(new Error('model asked for')) }));
    expect(await cachedDocument({ kind: 'openapi', options: OPTIONS, modules: withoutModels, diskFolder: cache }, convert)).toEqual(first);
    expect(calls).toHaveLength(1);
    expect(documentCacheStats).toEqual({ memoryHits: 0, diskHits: 1, misses: 0 });
  });

  it('converts again when a module, a file it imports, an option or the kind changes', async () => {
    const { calls, convert } = countingConverter();
    await cachedDocument(await request(), convert);

    writeIdl('shop.idl', SHOP.replace('Cart', 'Basket'));
    expect(await cachedDocument(await request(), convert)).toMatchObject({ source: JSON.stringify(['Basket', 'Order', 'common.Money']) });
    writeIdl('common.idl', COMMON.replace('Money', 'Cents').replace('amount', 'cents'));
    writeIdl('orders.idl', ORDERS.replace('Money', 'Cents'));
    expect(await cachedDocument(await request(), convert)).toMatchObject({ source: JSON.stringify(['Basket', 'Order', 'common.Cents']) });
    writeIdl('common.idl', COMMON.replace('Money', 'Cents').replace('amount', 'pennies'));
    await cachedDocument(await request(), convert);
    expect(calls).toHaveLength(4);

    await cachedDocument(await request({ ...OPTIONS, version: '3.0' }), convert);
    await cachedDocument(await request(OPTIONS, 'openrpc'), convert);
    expect(calls).toHaveLength(6);
    expect(documentCacheStats).toEqual({ memoryHits: 0, diskHits: 0, misses: 6 });
  });

  it('does not keep a failed conversion', async () => {
    const failing = async (): Promise<never> => {
      throw new Error('converter failed');
    };
    await expect(cachedDocument(await request(), failing)).rejects.toThrow('converter failed');
    const { calls, convert } = countingConverter();
    await cachedDocument(await request(), convert);
    expect(calls).toHaveLength(1);
  });

  it('gives the openapi.json the converter makes of the models', async () => {
    const modules = await loadModules();
    const expected = openApiAsset(await Promise.all(modules.map((module) => module.model())), { version: '3.1', info: {} });
    expect(await openApiDocument(modules, { version: '3.1', info: {} }, cache)).toEqual(expected);
    resetDocumentCache();
    expect(await openApiDocument(modules, { version: '3.1', info: {} }, cache)).toEqual(expected);
    expect(documentCacheStats.diskHits).toBe(1);
  });
});
