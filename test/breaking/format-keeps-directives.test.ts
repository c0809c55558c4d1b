/**
 * `idlrpc -format` keeps `// idlrpc:accept` directives wherever they are written, so formatting a
 * file never revives a break it accepted.
 */
import { expect, test } from 'vitest';
import { acceptDirectives } from '../../src/breaking/index.js';
import { parseIdl, printIdl } from '../../src/idl/index.js';

const TEXT = `namespace shop
// idlrpc:accept namespace-changed shop

import "common.idl" // idlrpc:accept struct-removed common.Gone

// idlrpc:accept method-removed Shop.old

struct Item { // idlrpc:accept field-added-required Item.b
    a int
    b int     // idlrpc:accept field-made-optional Item.b
    // idlrpc:accept field-removed Item.c
}

interface Shop {
    // idlrpc:accept param-added Shop.put.replace
    put(
        item Item, // idlrpc:accept param-reordered Shop.put
        // idlrpc:accept param-renamed Shop.put.replace
        replace bool
    ) bool
} // idlrpc:accept interface-added Shop

// idlrpc:accept error-removed Gone
`;

const directives = (text: string) => acceptDirectives(text, 'shop.idl').acceptances.map((a) => `${a.rule} ${a.subject}`);

test('every directive survives formatting, and formatting again', () => {
  const once = printIdl(parseIdl(TEXT, 'shop.idl'));
  expect(directives(TEXT)).toHaveLength(11);
  expect(directives(once).sort()).toEqual(directives(TEXT).sort());
  expect(printIdl(parseIdl(once, 'shop.idl'))).toBe(once);
});
