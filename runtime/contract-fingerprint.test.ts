import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalInterfaceTexts,
  fnv1a64,
  interfaceFingerprints,
  legacyInterfaceFingerprints,
  typeFingerprints,
} from './contract-fingerprint.js';
import type { IdlJson, IdlJsonStruct, IdlJsonType } from './idl-json.js';

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
    const fingerprints = legacyInterfaceFingerprints(idl);
    expect([...fingerprints.keys()]).toStrictEqual(['Catalog', 'Items']);
    for (const [name, text] of texts) expect(fingerprints.get(name)).toBe(`1.${fnv1a64(text)}`);
    expect(texts.get('Catalog')).toContain('struct:shop.Base\n field:id:string\n');
    expect(fingerprints.get('Catalog')).not.toBe(fingerprints.get('Items'));
  });
});

/** `[]Name`, `Name` (capitalized: user-defined) or a built-in type name, as the JSON form has it. */
function typeOf(text: string): IdlJsonType {
  if (text.startsWith('[]')) return { array: typeOf(text.slice(2)) };
  return /^[A-Z]/.test(text) ? { userDefined: text } : { builtIn: text as Extract<IdlJsonType, { builtIn: unknown }>['builtIn'] };
}

describe('version-2 fingerprints, built per type', () => {
  const struct = (name: string, fields: [string, string, boolean?][], extendsName?: string): IdlJsonStruct => ({
    name,
    namespace: 'shop',
    ...(extendsName ? { extends: extendsName } : {}),
    fields: fields.map(([field, type, optional]) => ({
      name: field,
      type: typeOf(type),
      ...(optional ? { optional: true } : {}),
    })),
  });
  /** Tree (a cycle: Tree -> Branch -> Tree), Leaf below it, Other beside it; Shop.get returns a Tree. */
  const idl = (leafField = 'string', order: 'ab' | 'ba' = 'ab'): IdlJson => {
    const structs = [
      struct('Tree', [
        ['branches', '[]Branch'],
        ['leaf', 'Leaf', true],
      ]),
      struct('Branch', [['tree', 'Tree', true]]),
      struct('Leaf', [['text', leafField]]),
      struct('Other', [['n', 'int']]),
    ];
    return {
      rootNamespace: 'shop',
      checksum: 'unused',
      structs: order === 'ab' ? structs : structs.reverse(),
      interfaces: [{ name: 'Shop', namespace: 'shop', methods: [{ name: 'get', returnType: { userDefined: 'Tree' } }] }],
    };
  };

  it("is '2.' and the hash of the interface's own lines and the fingerprints of the types it names", () => {
    const types = typeFingerprints(idl());
    const [head] = canonicalInterfaceTexts(idl()).get('Shop')!.split('struct:');
    expect(head).toBe('interface:shop.Shop\nmethod:get\n returns:shop.Tree\n');
    expect(interfaceFingerprints(idl()).get('Shop')).toBe(`2.${fnv1a64(`${head} type:shop.Tree:${types.get('shop.Tree')}\n`)}`);
  });

  it('gives the types of a cycle one fingerprint, covering what the cycle reaches, not what it does not', () => {
    const types = typeFingerprints(idl());
    expect(types.get('shop.Tree')).toBe(types.get('shop.Branch'));
    expect(types.get('shop.Leaf')).toBe(fnv1a64('struct:shop.Leaf\n field:text:string\n'));
    expect(types.get('shop.Tree')).toBe(
      fnv1a64(
        'struct:shop.Branch\n field:tree:shop.Tree?\nstruct:shop.Tree\n field:branches:[]shop.Branch\n field:leaf:shop.Leaf?\n' +
          ` ref:shop.Leaf:${types.get('shop.Leaf')}\n`,
      ),
    );
    // A change below the cycle reaches the interface; a change beside it does not.
    expect(interfaceFingerprints(idl('int')).get('Shop')).not.toBe(interfaceFingerprints(idl()).get('Shop'));
    const other = idl();
    other.structs![3].fields![0].type = { builtIn: 'string' };
    expect(interfaceFingerprints(other).get('Shop')).toBe(interfaceFingerprints(idl()).get('Shop'));
  });

  it('does not depend on the order of declarations (nor on where the cycle is entered)', () => {
    expect(typeFingerprints(idl('string', 'ba'))).toStrictEqual(typeFingerprints(idl()));
    expect(interfaceFingerprints(idl('string', 'ba'))).toStrictEqual(interfaceFingerprints(idl()));
  });

  it('follows an extends chain thousands of structs long without recursion', () => {
    const n = 20_000;
    const structs = Array.from({ length: n }, (_, i) => struct(`S${i}`, [[`f${i}`, 'int']], i > 0 ? `S${i - 1}` : undefined));
    const chain: IdlJson = {
      rootNamespace: 'shop',
      checksum: 'unused',
      structs,
      interfaces: [{ name: 'Shop', namespace: 'shop', methods: [{ name: 'last', returnType: { userDefined: `S${n - 1}` } }] }],
    };
    expect(interfaceFingerprints(chain).get('Shop')).toMatch(/^2\.[0-9a-f]{16}$/);
  });
});

describe('interfaceFingerprints of unions', () => {
  const idl = (variants: { tag: string; type: string }[], discriminator = 'kind'): IdlJson => ({
    rootNamespace: 'pay',
    checksum: 'unused',
    interfaces: [
      {
        name: 'Payments',
        namespace: 'pay',
        methods: [{ name: 'pay', parameters: [{ name: 'p', type: { userDefined: 'Payment' } }], returnType: { builtIn: 'bool' } }],
      },
    ],
    structs: [
      { name: 'Card', namespace: 'pay', fields: [{ name: 'number', type: { builtIn: 'string' } }] },
      { name: 'Cash', namespace: 'pay', fields: [{ name: 'amount', type: { builtIn: 'int' } }] },
    ],
    unions: [{ name: 'Payment', namespace: 'pay', discriminator, variants }],
  });
  const card = { tag: 'card', type: 'Card' };
  const cash = { tag: 'cash', type: 'Cash' };

  it('covers the union and its variant structs, not the order of the variants', () => {
    expect(canonicalInterfaceTexts(idl([card, cash])).get('Payments')).toBe(
      'interface:pay.Payments\nmethod:pay\n param:p:pay.Payment\n returns:bool\n' +
        'struct:pay.Card\n field:number:string\nstruct:pay.Cash\n field:amount:int\n' +
        'union:pay.Payment\n discriminator:kind\n variant:card:pay.Card\n variant:cash:pay.Cash\n',
    );
    const fingerprint = (json: IdlJson) => interfaceFingerprints(json).get('Payments');
    expect(fingerprint(idl([cash, card]))).toBe(fingerprint(idl([card, cash])));
    // A variant added, a tag or a discriminator renamed: another contract.
    expect(fingerprint(idl([card]))).not.toBe(fingerprint(idl([card, cash])));
    expect(fingerprint(idl([{ ...card, tag: 'debit' }, cash]))).not.toBe(fingerprint(idl([card, cash])));
    expect(fingerprint(idl([card, cash], 'type'))).not.toBe(fingerprint(idl([card, cash])));
  });
});

describe('interfaceFingerprints of attribute lists', () => {
  const idl = (parameter: Record<string, unknown>): IdlJson => ({
    rootNamespace: 'shop',
    checksum: 'unused',
    interfaces: [
      {
        name: 'Items',
        namespace: 'shop',
        methods: [{ name: 'list', parameters: [{ name: 'n', type: { builtIn: 'int' }, ...parameter }], returnType: { builtIn: 'bool' } }],
      },
    ],
  });
  const fingerprint = (parameter: Record<string, unknown>) => interfaceFingerprints(idl(parameter)).get('Items');

  it('covers optional parameters, defaults and constraints, and leaves lists-free contracts as they were', () => {
    expect(canonicalInterfaceTexts(idl({})).get('Items')).toBe('interface:shop.Items\nmethod:list\n param:n:int\n returns:bool\n');
    expect(canonicalInterfaceTexts(idl({ optional: true, default: 3, constraints: { max: 9 } })).get('Items')).toContain(
      ' param:n:int? {"default":3,"constraints":{"max":9}}\n',
    );
    expect(fingerprint({ optional: true })).not.toBe(fingerprint({}));
    expect(fingerprint({ constraints: { max: 9 } })).not.toBe(fingerprint({ constraints: { max: 10 } }));
    expect(fingerprint({ optional: true, default: 3 })).not.toBe(fingerprint({ optional: true, default: 4 }));
  });
});

describe('interfaceFingerprints of stream methods', () => {
  const idl = (stream: boolean): IdlJson => ({
    rootNamespace: 'shop',
    checksum: 'unused',
    structs: [{ name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: { builtIn: 'string' } }] }],
    interfaces: [
      {
        name: 'Orders',
        namespace: 'shop',
        methods: [
          {
            name: 'watch',
            parameters: [{ name: 'id', type: { builtIn: 'string' } }],
            returnType: { userDefined: 'Order' },
            ...(stream ? { stream: true as const } : {}),
          },
        ],
      },
    ],
  });

  it('tells a stream method from a plain one with the same item type (the answers differ on the wire)', () => {
    expect(interfaceFingerprints(idl(true)).get('Orders')).not.toBe(interfaceFingerprints(idl(false)).get('Orders'));
    expect(canonicalInterfaceTexts(idl(true)).get('Orders')).toContain('method:watch\n param:id:string\n returns:shop.Order\n stream\n');
  });

  it('gives a plain method the text it had before streams existed', () => {
    expect(canonicalInterfaceTexts(idl(false)).get('Orders')).toBe(
      'interface:shop.Orders\nmethod:watch\n param:id:string\n returns:shop.Order\nstruct:shop.Order\n field:id:string\n',
    );
  });
});
