import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compilerFolders, newestModification } from './compiler-identity.js';

const root = mkdtempSync(path.join(tmpdir(), 'idl-identity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the compiler of a working copy: its sources and the built plugin', () => {
  expect(compilerFolders(root)).toEqual([path.join(root, 'src'), path.join(root, 'runtime'), path.join(root, 'dist', 'src', 'plugin')]);
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
