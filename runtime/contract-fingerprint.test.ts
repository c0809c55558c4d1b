import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalInterfaceTexts, fnv1a64, interfaceFingerprints } from './contract-fingerprint.js';
import type { IdlJson } from './idl-json.js';

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

describe('interfaceFingerprints', () => {
  it('hashes each canonical text piece by piece to the same value as the whole text', () => {
    const idl: IdlJson = {
      rootNamespace: 'shop',
      checksum: 'unused',
      structs: [
        { name: 'Base', namespace: 'shop', fields: [{ name: 'id', type: { builtIn: 'string' } }] },
        { name: 'Item', namespace: 'shop', extends: 'Base', fields: [{ name: 'note', type: { builtIn: 'string' }, optional: true }] },
        { name: 'Page', namespace: 'shop', fields: [{ name: 'items', type: { array: { userDefined: 'Item' } } }] },
      ],
      enums: [{ name: 'Mood', namespace: 'shop', values: [{ name: 'calm' }, { name: 'très-content' }] }],
      errors: [{ name: 'shop.Gone', namespace: 'shop', code: 1001, message: 'gone' }],
      interfaces: [
        {
          name: 'Catalog',
          namespace: 'shop',
          methods: [{ name: 'page', parameters: [{ name: 'mood', type: { userDefined: 'Mood' } }], returnType: { userDefined: 'Page' } }],
        },
        {
          name: 'Items',
          namespace: 'shop',
          methods: [{ name: 'get', returnType: { userDefined: 'Item' }, returnOptional: true, raises: ['Gone'] }],
        },
      ],
    };
    const texts = canonicalInterfaceTexts(idl);
    const fingerprints = interfaceFingerprints(idl);
    expect([...fingerprints.keys()]).toStrictEqual(['Catalog', 'Items']);
    for (const [name, text] of texts) expect(fingerprints.get(name)).toBe(`1.${fnv1a64(text)}`);
    expect(texts.get('Catalog')).toContain('struct:shop.Base\n field:id:string\n');
    expect(fingerprints.get('Catalog')).not.toBe(fingerprints.get('Items'));
  });
});
