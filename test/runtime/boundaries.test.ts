/**
 * Boundaries of the runtime package: the browser entry stays small and server-free, and nothing
 * in runtime/ reaches into the compiler (src/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const runtimeDir = new URL('../../runtime/', import.meta.url).pathname;

describe('runtime/client (the browser entry)', () => {
  it('bundles to under 3 KB gzipped, without TypeBox or server code', async () => {
    const result = await build({
      entryPoints: [join(runtimeDir, 'client.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    for (const input of inputs)
      expect(input).toMatch(/^runtime\/(client|client-call|errors|json-rpc-exchange|retry|transport-error|batching-transport|settle)\.ts$/);
    const gzipped = gzipSync(result.outputFiles[0].contents, { level: 9 }).byteLength;
    expect(gzipped).toBeLessThan(3 * 1024);
  });
});

describe('runtime/', () => {
  it('imports only node builtins, @sinclair/typebox and its own files', () => {
    const files = readdirSync(runtimeDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(join(runtimeDir, file), 'utf8');
      for (const [, specifier] of source.matchAll(/\bfrom\s+'([^']+)'/g)) {
        const allowed = specifier.startsWith('node:') || specifier.startsWith('@sinclair/typebox') || /^\.\/[\w-]+\.js$/.test(specifier);
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });
});
