/**
 * The whole repository (sources, runtime, tests, benchmarks) type-checks under `strict`. The
 * playground has its own check (test/playground/typecheck.test.ts), because it resolves
 * `./checkout.idl` the way a Vite app does.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('tsc --noEmit -p tsconfig.json reports nothing', () => {
  const result = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', path.join(root, 'tsconfig.json')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
});
