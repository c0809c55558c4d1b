/**
 * The IDL commands read only regular files of a bounded size: a device, a FIFO or a huge file is a
 * located refusal (the path and why), exit 1, at once, never a hang or a heap that fills up.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileCli, tempFolder } from './harness.js';

const folder = tempFolder();
afterAll(() => folder.remove());
beforeAll(() => {
  ensureBuilt();
  execFileSync('mkfifo', [join(folder.dir, 'pipe.idl')]);
  // Sparse: 40 MiB on paper, nothing on disk.
  writeFileSync(join(folder.dir, 'huge.idl'), 'namespace x\n');
  truncateSync(join(folder.dir, 'huge.idl'), 40 * 1024 * 1024);
});

describe('idlrpc on inputs that are not IDL files', () => {
  it.each([
    ['-validate', '/dev/zero', 'cannot read /dev/zero: not a regular file (a device, FIFO or socket)'],
    ['-validate', 'pipe.idl', 'cannot read pipe.idl: not a regular file (a device, FIFO or socket)'],
    ['-format', 'pipe.idl', 'cannot read pipe.idl: not a regular file (a device, FIFO or socket)'],
    [
      '-validate',
      'huge.idl',
      `cannot read huge.idl: ${40 * 1024 * 1024} bytes, more than the ${32 * 1024 * 1024} bytes an IDL file may have`,
    ],
    ['-dts', 'huge.idl', `cannot read huge.idl: ${40 * 1024 * 1024} bytes, more than the ${32 * 1024 * 1024} bytes an IDL file may have`],
    ['-validate', '.', 'cannot read .: it is a directory'],
  ])(
    '%s %s: refused with the reason, exit 1',
    async (command, input, message) => {
      const run = await runHostileCli([command, input], folder.dir);
      expect(run.hung).toBe(false);
      expect(hasStackTrace(run.stderr)).toBe(false);
      expect(run.stderr).toContain(message);
      expect(run.code).toBe(1);
    },
    90_000,
  );

  it('-idl-to-openrpc of a FIFO: refused with the reason, exit 1, nothing written', async () => {
    const run = await runHostileCli(['-idl-to-openrpc', 'pipe.idl', '-output-dir', 'openrpc-out'], folder.dir);
    expect(run.hung).toBe(false);
    expect(hasStackTrace(run.stderr)).toBe(false);
    expect(run.stderr).toContain('cannot read pipe.idl: not a regular file (a device, FIFO or socket)');
    expect(run.code).toBe(1);
    expect(existsSync(join(folder.dir, 'openrpc-out'))).toBe(false);
  }, 90_000);
});
