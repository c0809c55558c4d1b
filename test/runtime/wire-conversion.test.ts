import { describe, expect, it } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { convertWire, type WireShape, wireConversions } from '../../runtime/wire-conversion.js';
import { timestampFromWire } from '../../runtime/wire-values.js';

const conversionsOf = (idl: string) => wireConversions(toIdlJson(compileIdl(idl, 'n.idl')));

describe('wireConversions', () => {
  it('leaves out methods that reach no timestamp or bytes, recursive structs too', () => {
    const conversions = conversionsOf(`namespace n
struct Node {
  kids []Node
  when date
  data json
}
interface I {
  get(node Node) Node
}
`);
    expect(conversions.size).toBe(0);
  });

  it('finds a timestamp behind recursion, an extends chain, arrays and maps', () => {
    const conversions = conversionsOf(`namespace n
struct Base {
  at timestamp
}
struct Child extends Base {
  name string
}
struct Node {
  kids []Node
  byName map[string]Child
}
interface I {
  get(node Node, label string) Node
}
`);
    expect(conversions.get('I.get')).toEqual({
      p: [['s', 'Node'], 0],
      r: ['s', 'Node'],
      s: {
        Node: [
          ['kids', ['a', ['s', 'Node']]],
          ['byName', ['m', ['s', 'Child']]],
        ],
        Child: [['at', 't']],
      },
    });
  });
});

describe('convertWire', () => {
  const s = { S: [['at', 't'] as [string, 't'], ['raw', 'b'] as [string, 'b']] };

  it('makes wire strings Date and Uint8Array, on a copy', () => {
    const wire = { at: '2026-01-31T12:00:00Z', raw: 'aGk=', other: 1 };
    expect(convertWire(wire, ['s', 'S'], s, false)).toEqual({
      at: new Date('2026-01-31T12:00:00Z'),
      raw: new Uint8Array([104, 105]),
      other: 1,
    });
    expect(wire.at).toBe('2026-01-31T12:00:00Z');
  });

  it('writes Date with toISOString and bytes as padded base64', () => {
    const value = { at: new Date('2026-01-31T12:00:00+02:00'), raw: new Uint8Array([255, 254]) };
    expect(convertWire(value, ['s', 'S'], s, true)).toEqual({ at: '2026-01-31T10:00:00.000Z', raw: '//4=' });
  });

  it('leaves values that are not what the shape says as they are (the validators judge them)', () => {
    expect(convertWire([], ['s', 'S'], s, true)).toEqual([]);
    expect(convertWire(7, ['a', 't'], s, false)).toBe(7);
    expect(convertWire({ at: 3 }, ['s', 'S'], s, false)).toEqual({ at: 3 });
  });
});

describe('timestampFromWire', () => {
  it('reads lower-case t and z, offsets, and any number of fraction digits (to the millisecond)', () => {
    expect(timestampFromWire('2026-01-31t12:00:00.1z').toISOString()).toBe('2026-01-31T12:00:00.100Z');
    expect(timestampFromWire('2026-01-31T12:00:00.123999+01:00').toISOString()).toBe('2026-01-31T11:00:00.123Z');
  });

  it('a union converts the fields of every variant, and refuses variants that give a converting field different types', () => {
    const struct = (name: string, field: string) => `struct ${name} {\n    ${field}\n}\n`;
    const idl = (a: string, b: string) =>
      `namespace n\n${struct('A', a)}${struct('B', b)}union U {\n    a A\n    b B\n}\ninterface I {\n    m(u U) U\n}\n`;
    const conversion = conversionsOf(idl('at timestamp', 'raw bytes')).get('I.m')!;
    expect(conversion).toEqual({
      p: [['s', 'U']],
      r: ['s', 'U'],
      s: {
        U: [
          ['at', 't'],
          ['raw', 'b'],
        ],
      },
    });
    const value = { kind: 'a', at: '2026-01-01T00:00:00Z' };
    expect(convertWire(value, conversion.r as WireShape, conversion.s, false)).toEqual({ kind: 'a', at: new Date('2026-01-01T00:00:00Z') });
    expect(conversionsOf(idl('at timestamp', 'at timestamp')).get('I.m')!.s).toEqual({ U: [['at', 't']] });
    expect(() => conversionsOf(idl('at timestamp', 'at string'))).toThrow(
      "Union U: field 'at' has different types in its variants and one of them holds a timestamp or bytes",
    );
  });
});
