import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { writeFileAtomic, writeFilesAtomic, writeIfChanged } from './atomic-write.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'atomic-write-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  test('creates parent directories, replaces content, keeps permissions, leaves no temp file', async () => {
    const path = join(root, 'a/b/out.txt');
    await writeFileAtomic(path, 'one');
    chmodSync(path, 0o640);
    await writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(root, 'a/b'))).toEqual(['out.txt']);
  });

  test('a failing write leaves the old file and no temp file', async () => {
    const path = join(root, 'target');
    mkdirSync(path); // renaming a file over a directory fails
    await expect(writeFileAtomic(path, 'x')).rejects.toThrow();
    expect(readdirSync(root)).toEqual(['target']);
  });
});

describe('writeIfChanged', () => {
  test('writes new or different content, and leaves a file that already holds it untouched', async () => {
    const path = join(root, 'x.d.ts');
    expect(await writeIfChanged(path, 'one')).toBe(true);
    const written = statSync(path).mtimeMs;
    chmodSync(path, 0o600);
    expect(await writeIfChanged(path, 'one')).toBe(false);
    expect(statSync(path).mtimeMs).toBe(written);
    expect(await writeIfChanged(path, 'two')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(root)).toEqual(['x.d.ts']);
  });
});

describe('writeFilesAtomic', () => {
  test('merge mode adds and replaces files and keeps the others', async () => {
    const dir = join(root, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'kept');
    writeFileSync(join(dir, 'a.txt'), 'old');
    await writeFilesAtomic(
      dir,
      new Map([
        ['a.txt', 'new'],
        ['sub/b.txt', 'b'],
      ]),
    );
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('new');
    expect(readFileSync(join(dir, 'sub/b.txt'), 'utf8')).toBe('b');
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('kept');
    expect(readdirSync(root)).toEqual(['out']);
  });

  test('replace mode leaves exactly the new files', async () => {
    const dir = join(root, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'stale.txt'), 'stale');
    await writeFilesAtomic(dir, { 'fresh.txt': 'fresh' }, { mode: 'replace' });
    expect(readdirSync(dir)).toEqual(['fresh.txt']);
    expect(readdirSync(root)).toEqual(['out']);
  });

  test('a failure while staging leaves the target untouched and no staging directory', async () => {
    const dir = join(root, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'old');
    // 'x' is written as a file, so 'x/y.txt' cannot be created below it.
    await expect(
      writeFilesAtomic(
        dir,
        new Map([
          ['a.txt', 'new'],
          ['x', 'file'],
          ['x/y.txt', 'y'],
        ]),
      ),
    ).rejects.toThrow();
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['a.txt']);
    expect(readdirSync(root)).toEqual(['out']);
  });

  test('refuses paths that leave the directory', async () => {
    await expect(writeFilesAtomic(join(root, 'out'), { '../evil.txt': 'x' })).rejects.toThrow(/outside/);
    expect(readdirSync(root)).toEqual([]);
  });
});
