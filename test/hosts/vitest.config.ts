// `npm run test:hosts`: the host fixtures' full matrix (test/hosts/*.hosts-test.ts, too slow for CI)
// together with their CI part (test/hosts/*.test.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/hosts/**/*.test.ts', 'test/hosts/**/*.hosts-test.ts'],
    exclude: ['test/hosts/.apps/**', '**/node_modules/**'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Next.js builds take both cores of a small machine: one file at a time.
    fileParallelism: false,
  },
});
