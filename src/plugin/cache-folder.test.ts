import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFolder } from './cache-folder.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cache-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cacheFolder', () => {
  const project = path.join(dir, 'project');
  const nested = path.join(project, 'src', 'app');
  mkdirSync(nested, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), '{}');

  it('is node_modules/.cache/unplugin-idl-rpc of the nearest folder with a package.json', () => {
    expect(cacheFolder(nested, true, undefined, {})).toBe(path.join(project, 'node_modules', '.cache', 'unplugin-idl-rpc'));
    expect(cacheFolder(project, true, undefined, {})).toBe(path.join(project, 'node_modules', '.cache', 'unplugin-idl-rpc'));
  });

  it('is cacheDir, relative to the root, when given', () => {
    expect(cacheFolder(nested, true, '.idl-cache', {})).toBe(path.join(nested, '.idl-cache'));
  });

  it('is none when turned off by the option or by IDLRPC_CACHE=0 or false', () => {
    expect(cacheFolder(nested, false, undefined, {})).toBeUndefined();
    expect(cacheFolder(nested, true, '.idl-cache', { IDLRPC_CACHE: '0' })).toBeUndefined();
    expect(cacheFolder(nested, true, undefined, { IDLRPC_CACHE: 'false' })).toBeUndefined();
    expect(cacheFolder(nested, true, undefined, { IDLRPC_CACHE: '1' })).toBeDefined();
  });
});
