import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sourceFileKey } from './model-coverage.js';

describe('sourceFileKey', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names a file one way however the loader spelled it', () => {
    expect(sourceFileKey('/app/api/../shop.idl')).toBe('/app/shop.idl');
    expect(sourceFileKey('/app//shop.idl')).toBe('/app/shop.idl');
    expect(sourceFileKey('/app/shop.idl')).toBe('/app/shop.idl');
    // Asked again (kept keys), the same answers.
    expect(sourceFileKey('/app/api/../shop.idl')).toBe('/app/shop.idl');
  });

  it('resolves a relative name against the working directory of the moment', () => {
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue('/first');
    expect(sourceFileKey('shop.idl')).toBe('/first/shop.idl');
    cwd.mockReturnValue('/second');
    expect(sourceFileKey('shop.idl')).toBe('/second/shop.idl');
    expect(sourceFileKey('./shop.idl')).toBe('/second/shop.idl');
  });

  it('still answers right once more names were seen than it keeps', () => {
    const names = Array.from({ length: 25_000 }, (_, i) => `/app/${i % 7}/../file-${i}.idl`);
    for (const name of names) expect(sourceFileKey(name)).toBe(path.resolve(name));
    expect(sourceFileKey(names[3])).toBe('/app/file-3.idl');
  });
});
