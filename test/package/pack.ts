/** Packs this package into a tarball, as `npm publish` would, for the tests that install it. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';

const run = promisify(execFile);

/** Builds if needed, packs into `destination` and returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
  // `prepack` would rebuild dist/ while other test files run from it: build first, pack without scripts.
  ensureBuilt();
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: REPO_ROOT,
    timeout: 120_000,
  });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  return join(destination, filename);
}
