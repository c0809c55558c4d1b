import { describe, expect, test } from 'vitest';
import { tryCompileIdl } from '../../src/index.js';
import { syntheticIdl } from './synthetic.js';

describe('syntheticIdl (scale fixture for benchmarks)', () => {
  test('a 10,000-line file checks clean and has the requested size', () => {
    const text = syntheticIdl(10_000);
    const lines = text.split('\n').length;
    expect(lines).toBeGreaterThanOrEqual(10_000);
    expect(lines).toBeLessThan(10_100);
    const result = tryCompileIdl(text, 'synthetic.idl');
    expect(result.diagnostics).toEqual([]);
    expect(result.model!.structs.length).toBeGreaterThan(700);
  });
});
