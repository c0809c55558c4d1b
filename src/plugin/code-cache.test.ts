import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { codeCacheFolder, LENT_MODULE_PREFIX, lentModules, runCommonJsScript } from './code-cache.js';

let under: string;
let runs: number;

beforeEach(() => {
  under = mkdtempSync(path.join(tmpdir(), 'idl-code-cache-'));
  runs = 0;
});
afterEach(() => rmSync(under, { recursive: true, force: true }));

/**
 * Runs a script that uses what Node gives a CommonJS module and something the caller lends it. Each
 * run's file is in a folder of its own: V8 answers a second compile of a script with the same text
 * and name in one process from memory, without reading the cache it is given.
 */
function run(marker: string, options: { env?: NodeJS.ProcessEnv } = {}) {
  const folder = path.join(under, `run-${++runs}`);
  mkdirSync(folder);
  const script = path.join(folder, 'part.cjs');
  writeFileSync(
    script,
    `"use strict";
const path = require('node:path');
const lent = require('lent:thing');
function strict() { return this === undefined; }
module.exports = { marker: ${JSON.stringify(marker)}, lent, base: path.basename(__filename), dir: __dirname, strict: strict(), resolved: require.resolve('./part.cjs') };
`,
  );
  return runCommonJsScript(script, lend, { under, ...options });
}

const lend = (specifier: string) => (specifier === 'lent:thing' ? { lent: true } : undefined);
const cacheFiles = () => readdirSync(codeCacheFolder(under)).filter((name) => name.endsWith('.bin'));

describe('runCommonJsScript', () => {
  test('runs the script as a CommonJS module, with what the caller lends, Node built-ins and require.resolve', () => {
    const { exports } = run('one');
    expect(exports).toEqual({
      marker: 'one',
      lent: { lent: true },
      base: 'part.cjs',
      dir: path.join(under, 'run-1'),
      strict: true,
      // `require.resolve` too, as Node's own `require` has (the webpack family's shell script finds unplugin by it).
      resolved: path.join(under, 'run-1', 'part.cjs'),
    });
  });

  test('no cache at first; once saved, the next run of the same text uses it', () => {
    const first = run('one');
    expect(first.codeCache).toBe('absent');
    first.saveCodeCache();
    expect(cacheFiles()).toHaveLength(1);
    const second = run('one');
    expect(second.codeCache).toBe('accepted');
    expect(second.exports).toMatchObject({ marker: 'one', lent: { lent: true } });
  });

  test('a changed script does not take the cache of its earlier text', () => {
    run('one').saveCodeCache();
    const changed = run('two'); // same length: V8 alone would take the cache of 'one'
    expect(changed.codeCache).toBe('absent');
    expect(changed.exports).toMatchObject({ marker: 'two' });
  });

  test('a cache the engine refuses is reported, the script still runs, and saving replaces it', () => {
    run('one').saveCodeCache();
    const [name] = cacheFiles();
    writeFileSync(path.join(codeCacheFolder(under), name), 'not a code cache');
    const refused = run('one');
    expect(refused.codeCache).toBe('rejected');
    expect(refused.exports).toMatchObject({ marker: 'one' });
    refused.saveCodeCache();
    expect(run('one').codeCache).toBe('accepted');
  });

  test('IDLRPC_CACHE=0 turns it off: nothing is read or written', () => {
    const off = run('one', { env: { IDLRPC_CACHE: '0' } });
    expect(off.codeCache).toBe('off');
    off.saveCodeCache();
    expect(readdirSync(under)).toEqual(['run-1']);
  });

  test('a cache folder that others can write in is not used', () => {
    mkdirSync(codeCacheFolder(under));
    chmodSync(codeCacheFolder(under), 0o777);
    expect(run('one').codeCache).toBe('off');
  });

  test('the folder is created for this user alone', () => {
    run('one');
    expect(statSync(codeCacheFolder(under)).mode & 0o777).toBe(0o700);
  });

  test('the folder keeps the eight most recently written caches', () => {
    const folder = codeCacheFolder(under);
    mkdirSync(folder, { mode: 0o700 });
    for (let i = 0; i < 9; i++) {
      const old = path.join(folder, `old-${i}.bin`);
      writeFileSync(old, '');
      utimesSync(old, 1_000_000 + i, 1_000_000 + i);
    }
    run('one').saveCodeCache();
    const kept = cacheFiles();
    expect(kept).toHaveLength(8);
    expect(kept.filter((name) => name.startsWith('old-')).sort()).toEqual([
      'old-2.bin',
      'old-3.bin',
      'old-4.bin',
      'old-5.bin',
      'old-6.bin',
      'old-7.bin',
      'old-8.bin',
    ]);
  });
});

describe('lentModules', () => {
  test('answers the lent modules by their dist path, leaves other specifiers to Node, and names the list of one it lacks', () => {
    const errors = { RpcError: class {} };
    const lend = lentModules({ 'runtime/errors.js': errors }, 'the-runner.ts');
    expect(lend(`${LENT_MODULE_PREFIX}runtime/errors.js`)).toBe(errors);
    expect(lend('node:path')).toBeUndefined();
    expect(() => lend(`${LENT_MODULE_PREFIX}runtime/cors.js`)).toThrow(/runtime\/cors\.js.*the-runner\.ts/);
  });
});
