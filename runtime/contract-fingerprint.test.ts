import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64 } from './contract-fingerprint.js';

/** FNV-1a 64 as its definition reads, in BigInt: the reference the fast version must match bit for bit. */
function referenceFnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

describe('fnv1a64', () => {
  it('gives the published FNV-1a 64 values', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('agrees with the BigInt definition on any text (fingerprints on the wire must not change)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(fnv1a64(text)).toBe(referenceFnv1a64(text));
      }),
      { numRuns: 500 },
    );
  });
});
