/**
 * The built `idlrpc` binary (dist/, built by `npm test`'s pretest) generates the same directory as the
 * sources do, and reports failures with its exit code: it finds the runtime sources it copies from its
 * own location in the package.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { checkoutIdl, freshDir, idlrpc, readTree, repoRoot } from './helpers.js';

const bin = path.join(repoRoot, 'dist/src/cli/bin.js');

function runBin(args: string[]) {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first (npm test does)`);
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, cwd: repoRoot });
}

test('the built binary writes the same files as the sources', async () => {
  const fromBin = freshDir('bin-cjs');
  const fromSource = freshDir('source-cjs');
  const result = runBin(['-plugin', 'ts-client-server', '-dir', fromBin, '-ts-module', 'cjs', '-ts-gen-package-json', checkoutIdl]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(
    (await idlrpc(['-plugin', 'ts-client-server', '-dir', fromSource, '-ts-module', 'cjs', '-ts-gen-package-json', checkoutIdl])).code,
  ).toBe(0);
  expect(readTree(fromBin)).toEqual(readTree(fromSource));
});

test('the built binary exits 2 with the usage line for an unknown plugin', () => {
  const result = runBin(['-plugin', 'swift', '-dir', freshDir('bin-unknown'), checkoutIdl]);
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/unknown plugin 'swift'[\s\S]*usage: idlrpc -plugin ts-client-server/);
});
