import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'runtime/**/*.test.ts', 'test/**/*.test.ts', 'playground/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
