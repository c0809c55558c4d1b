import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compilerFolders, newestModification } from './compiler-identity.js';

const root = mkdtempSync(path.join(tmpdir(), 'idl-identity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the compiler of a working copy run from its sources: the sources and the built plugin', () => {
  const fromSources = path.join(root, 'src', 'plugin', 'compiler-identity.ts');
  expect(compilerFolders(root, fromSources)).toEqual([
    path.join(root, 'src'),
    path.join(root, 'runtime'),
    path.join(root, 'dist', 'src', 'plugin'),
  ]);
});

test('the compiler of a working copy run from the built plugin: the built plugin alone', () => {
  const fromBundle = path.join(root, 'dist', 'src', 'plugin', 'chunk-ABCDEF.js');
  expect(compilerFolders(root, fromBundle)).toEqual([path.join(root, 'dist', 'src', 'plugin')]);
  // A folder that only starts like it is not it.
  expect(compilerFolders(root, path.join(root, 'dist', 'src', 'plugin-old', 'chunk.js'))).toHaveLength(3);
});

test('an edit of any file below the folders moves the stamp; files elsewhere do not', () => {
  const plugin = path.join(root, 'dist', 'src', 'plugin');
  mkdirSync(path.join(plugin, 'nested'), { recursive: true });
  const bundle = path.join(plugin, 'nested', 'chunk.js');
  const elsewhere = path.join(root, 'README.md');
  writeFileSync(bundle, '');
  writeFileSync(elsewhere, '');
  utimesSync(bundle, 1_000, 1_000);
  utimesSync(elsewhere, 5_000, 5_000);
  expect(newestModification([plugin])).toBe(1_000_000);
  utimesSync(bundle, 2_000, 2_000);
  expect(newestModification([plugin])).toBe(2_000_000);
  expect(newestModification([path.join(root, 'missing')])).toBe(0);
});

test('only code moves the stamp: scripts and sources, not declarations or source maps', () => {
  const folder = path.join(root, 'kinds');
  mkdirSync(folder, { recursive: true });
  const code = ['shell.cjs', 'entry.js', 'module.mjs', 'source.ts'];
  const notCode = ['entry.d.ts', 'entry.js.map', 'shell.cjs.map'];
  for (const [index, name] of [...code, ...notCode].entries()) {
    writeFileSync(path.join(folder, name), '');
    utimesSync(path.join(folder, name), 1_000 + index, 1_000 + index);
  }
  expect(newestModification([folder])).toBe((1_000 + code.length - 1) * 1_000);
  utimesSync(path.join(folder, 'entry.js'), 9_000, 9_000);
  expect(newestModification([folder])).toBe(9_000_000);
});
