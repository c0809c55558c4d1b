/**
 * The playground, its tests and the `checkout.idl.d.ts` the plugin writes type-check under
 * `strict` (playground/tsconfig.json, bundler resolution as in any Vite app).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { playgroundModules, playgroundRoot, repositoryRoot } from './harness.js';

it('type-checks with the declarations the plugin writes beside checkout.idl', async () => {
  const modules = await playgroundModules();
  try {
    await modules.load('/checkout.idl'); // loading the IDL writes checkout.idl.d.ts
  } finally {
    await modules.close();
  }
  expect(existsSync(path.join(playgroundRoot, 'checkout.idl.d.ts'))).toBe(true);

  const tsc = path.join(repositoryRoot, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['--noEmit', '-p', path.join(playgroundRoot, 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
});
