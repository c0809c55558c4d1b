/**
 * Mock mode adds nothing to a production bundle: no runtime entry but runtime/mock (with its msw.ts)
 * reaches the mock code, so an app (or a server) bundled from them carries none of it.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const runtimeDir = new URL('../../runtime/', import.meta.url).pathname;

it.each(['client.ts', 'core.ts', 'index.ts'])('runtime/%s reaches no mock code', async (entry) => {
  const result = await build({
    entryPoints: [join(runtimeDir, entry)],
    bundle: true,
    format: 'esm',
    platform: entry === 'client.ts' ? 'browser' : 'node',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.length).toBeGreaterThan(1);
  expect(inputs.filter((input) => input.startsWith('runtime/mock/') || input === 'runtime/mock/msw.ts')).toEqual([]);
});
