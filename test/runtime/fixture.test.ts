/**
 * The hand-written IDL JSON the runtime tests use is what the compiler makes of checkout.idl
 * (fixtures/checkout.idl, a copy of the spec's reference IDL), comments and checksum aside, so the
 * runtime is tested against the real contract.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';

/** A copy without `comment` members and checksum. */
function contractOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(contractOnly);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'comment' && key !== 'checksum')
      .map(([key, item]) => [key, contractOnly(item)]),
  );
}

it('equals toIdlJson(checkout.idl) apart from comments and checksum', () => {
  const file = new URL('./fixtures/checkout.idl', import.meta.url);
  const compiled = toIdlJson(compileIdl(readFileSync(file, 'utf8'), 'checkout.idl'));
  expect(contractOnly(checkoutIdl)).toStrictEqual(contractOnly(compiled));
});
