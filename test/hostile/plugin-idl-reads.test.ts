/**
 * The plugin reads regular files only, in every bundler: an `.idl` that is a device or a FIFO must
 * fail the build with a clear error instead of reading for ever (`/dev/zero`) or waiting for ever
 * for a writer (a FIFO). Rollup with `preserveSymlinks` hands the plugin a symlink named `.idl`
 * without looking at what it points to, so the cases are symlinks to such files.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript, tempFolder } from './harness.js';

let remove: () => void;
let dir: string;

beforeAll(() => {
  ensureBuilt();
  const temp = tempFolder('idlrpc-idl-reads-');
  remove = temp.remove;
  dir = temp.dir;
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  symlinkSync(path.join(dir, 'fifo'), path.join(dir, 'pipe.idl'));
  symlinkSync('/dev/zero', path.join(dir, 'zero.idl'));
});

afterAll(() => remove?.());

/** Builds `import './<idl>'` with Rollup and the built plugin in a hostile child; the error message or 'built'. */
async function buildImporting(idl: string) {
  const entry = path.join(dir, `import-${idl}.js`);
  writeFileSync(entry, `import * as api from './${idl}';\nconsole.log(api);\n`);
  const run = await runHostileScript(`
const { rollup } = await import('rollup');
const { default: idlRpc } = await import(DIST + 'src/plugin/rollup.js');
try {
  const bundle = await rollup({ input: ${JSON.stringify(entry)}, preserveSymlinks: true, plugins: [idlRpc()], onwarn() {} });
  await bundle.close();
  process.stdout.write('built');
} catch (error) {
  process.stdout.write(error.message);
}
process.exit(0);
`);
  return run;
}

test.each([
  ['zero.idl', 'a symlink to /dev/zero'],
  ['pipe.idl', 'a symlink to a FIFO'],
])(
  '%s (%s) fails the build: not a regular file',
  async (idl) => {
    const run = await buildImporting(idl);
    expect(run.hung).toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${path.join(dir, idl)}: not a regular file, refused`);
    expect(hasStackTrace(run.stdout)).toBe(false);
  },
  90_000,
);
