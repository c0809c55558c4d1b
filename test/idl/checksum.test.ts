import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { canonicalContractText, compileIdl, idlChecksum, toIdlJson } from '../../src/index.js';

// The family's reference checkout.idl, byte for byte (playground/checkout.idl has since grown
// constructs outside the family's common subset, such as a stream method).
const checkoutSource = readFileSync(new URL('./fixtures/family/checkout.idl', import.meta.url), 'utf8');

// A contract with what checkout.idl lacks: `extends`, maps, nested containers, user types inside
// them, an optional return, a method without parameters and parameters out of name order.
const INVENTORY_IDL = `namespace inv

enum Zone {
    north
    east
}

struct Base {
    id     string
}

struct Item extends Base {
    tags   []string
    attrs  map[string]int
    zone   Zone  [optional]
}

struct Stock {
    byZone  map[string][]Item
    grid    [][]float
}

errors {
    7 Missing "no such item"
}

interface Store {
    put(zone Zone, items []Item, bucket map[string]Stock) bool raises(Missing)
    find(id string) Item [optional]
    all() []map[string]Item
}
`;

// Written by hand from the rules in docs/idl.md "JSON form and checksum", not from our output.
const INVENTORY_CANONICAL = [
  'namespace:inv',
  'interface:inv.Store',
  '  method:all',
  '    returns:[]map[string]inv.Item',
  '  method:find',
  '    param:id:string',
  '    returns:inv.Item',
  '    returnOptional:true',
  '  method:put',
  '    param:bucket:map[string]inv.Stock',
  '    param:items:[]inv.Item',
  '    param:zone:inv.Zone',
  '    returns:bool',
  '    raises:Missing',
  'struct:inv.Base',
  '  field:id:string',
  'struct:inv.Item',
  '  extends:inv.Base',
  '  field:attrs:map[string]int',
  '  field:tags:[]string',
  '  field:zone:inv.Zone:optional',
  'struct:inv.Stock',
  '  field:byZone:map[string][]inv.Item',
  '  field:grid:[][]float',
  'enum:inv.Zone',
  '  value:east',
  '  value:north',
  'error:inv.Missing:7',
  '',
].join('\n');

const sha256Base64url = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

describe('the IDL checksum is the family algorithm', () => {
  // The fixture must stay the family's file exactly (comments and layout too), not drift with the playground.
  test("the fixture is the family's reference checkout.idl byte for byte", () => {
    const bytes = readFileSync(new URL('./fixtures/family/checkout.idl', import.meta.url));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe('9350f5206245db91c23ebf9a026da18fe7b3d7f9d1d124de9b8e3b8605f79ff0');
  });

  // Both values were computed by the family's own implementation, not by ours.
  // docs/playground.md: the playground's IDL is the reference plus one stream method and its error, and
  // @readonly tags on its reads (comment lines to the family's other implementations, outside the checksum).
  test("the playground's checkout.idl is the reference file plus watchOrder, OrderNotFound and @readonly tags", () => {
    const playground = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
    const additions = [
      '    1006 OrderNotFound  "order does not exist"\n',
      '\n    // The order now, then again each time its status changes, until it is delivered.\n' +
        '    watchOrder(orderId string) stream Order raises(OrderNotFound)\n',
    ];
    for (const addition of additions) expect(playground).toContain(addition);
    const tags = playground.match(/^ {4}\/\/ @readonly\n/gm) ?? [];
    expect(tags).toHaveLength(4);
    const withoutTags = playground.replaceAll('    // @readonly\n', '');
    expect(additions.reduce((text, addition) => text.replace(addition, ''), withoutTags)).toBe(checkoutSource);
  });

  test("checkout.idl without raises(...) gives the family generator's checksum", () => {
    const withoutRaises = checkoutSource.replace(/ raises\([^)]*\)/g, '');
    expect(withoutRaises).not.toBe(checkoutSource);
    expect(idlChecksum(compileIdl(withoutRaises, 'checkout.idl'))).toBe('QRhpvI82cyOt-09wpxUcS4-UvP8hFt5UuzryBpCpiF0');
  });

  test("checkout.idl as it is gives the family's checksum", () => {
    const model = compileIdl(checkoutSource, 'checkout.idl');
    expect(idlChecksum(model)).toBe('uXwPpC0XCjXuv9JKac1VlzmliEBPIEz_RNJHJ58aaok');
    expect(toIdlJson(model).checksum).toBe('uXwPpC0XCjXuv9JKac1VlzmliEBPIEz_RNJHJ58aaok');
  });

  test('extends, maps, arrays and optional returns render as the rules say', () => {
    const model = compileIdl(INVENTORY_IDL, 'inventory.idl');
    expect(canonicalContractText(model)).toBe(INVENTORY_CANONICAL);
    expect(idlChecksum(model)).toBe(sha256Base64url(INVENTORY_CANONICAL));
  });

  test('error messages are not part of the checksum, error codes are', () => {
    const base = idlChecksum(compileIdl(INVENTORY_IDL, 'inventory.idl'));
    const newMessage = INVENTORY_IDL.replace('"no such item"', '"item not found"');
    expect(idlChecksum(compileIdl(newMessage, 'inventory.idl'))).toBe(base);
    const newCode = INVENTORY_IDL.replace('7 Missing', '8 Missing');
    expect(idlChecksum(compileIdl(newCode, 'inventory.idl'))).not.toBe(base);
  });

  // The family's quirk, kept so the values match: parameters are sorted by name, so the checksum
  // cannot see two of them swapped although positional callers break (docs/protocol.md).
  test('swapping two parameters does not change the checksum (documented quirk)', () => {
    const swapped = INVENTORY_IDL.replace('put(zone Zone, items []Item,', 'put(items []Item, zone Zone,');
    expect(swapped).not.toBe(INVENTORY_IDL);
    expect(idlChecksum(compileIdl(swapped, 'inventory.idl'))).toBe(idlChecksum(compileIdl(INVENTORY_IDL, 'inventory.idl')));
  });
});
