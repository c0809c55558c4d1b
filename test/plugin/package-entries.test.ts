/**
 * The published entries: `unplugin-idl-rpc/<bundler>` resolve through the package's exports map (to
 * dist/) and each default export makes a plugin for its bundler.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { BUNDLERS } from './harness/bundlers.js';
import { repoRoot } from './harness/workspace.js';

test('every bundler entry resolves by package name and makes a plugin', async () => {
  const script = `
    const out = {};
    for (const bundler of ${JSON.stringify(BUNDLERS)}) {
      const { default: make } = await import('unplugin-idl-rpc/' + bundler);
      const plugin = make();
      out[bundler] = { kind: typeof plugin, name: plugin.name ?? plugin.constructor?.name, apply: typeof plugin.apply, setup: typeof plugin.setup };
    }
    console.log(JSON.stringify(out));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot });
  const made = JSON.parse(stdout) as Record<string, { kind: string; name?: string; apply: string; setup: string }>;
  for (const bundler of ['vite', 'rollup', 'rolldown'] as const)
    expect(made[bundler]).toMatchObject({ kind: 'object', name: 'unplugin-idl-rpc' });
  expect(made.esbuild).toMatchObject({ name: 'unplugin-idl-rpc', setup: 'function' });
  expect(made.webpack).toMatchObject({ apply: 'function' });
  expect(made.rspack).toMatchObject({ apply: 'function' });
});
