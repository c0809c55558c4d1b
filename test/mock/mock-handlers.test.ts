/**
 * createMockHandlers (runtime/mock/): deterministic, realistic answers that pass result validation,
 * for every type and constraint of the IDL, `@example`s first, the mock-error header, streams.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { createMockHandlers, MOCK_ERROR_HEADER, mockBaseTime } from '../../runtime/mock/index.js';
import { MockTypes } from '../../runtime/mock/mock-values.js';
import { SeededRandom } from '../../runtime/mock/seeded-random.js';
import { createRpcServer } from '../../runtime/server.js';
import { compileValidators } from '../../runtime/validation.js';

const idlOf = (file: string): IdlJson => toIdlJson(compileIdl(readFileSync(new URL(file, import.meta.url), 'utf8'), file));
const rich = idlOf('./rich.idl');
const checkout = idlOf('../../playground/checkout.idl');

type Handler = (...args: unknown[]) => unknown;
const methodOf = (idl: IdlJson, options: Parameters<typeof createMockHandlers>[1], qualified: string): Handler => {
  const [iface, method] = qualified.split('.');
  return createMockHandlers(idl, options)[iface][method];
};

/** Every item of a stream, or the plain result. */
async function answerOf(value: unknown): Promise<unknown> {
  if (typeof value !== 'object' || value === null || !(Symbol.asyncIterator in value)) return value;
  const items: unknown[] = [];
  for await (const item of value as AsyncIterable<unknown>) items.push(item);
  return items;
}

const methodsOf = (idl: IdlJson) =>
  (idl.interfaces ?? []).flatMap((iface) => (iface.methods ?? []).map((method) => ({ name: `${iface.name}.${method.name}`, method })));

afterEach(() => {
  vi.useRealTimers();
});

describe('createMockHandlers', () => {
  it('answers 1,000 random calls (any seed, method and params) with values that pass the result validation', async () => {
    const validatorsOf = new Map([rich, checkout].map((idl) => [idl, compileValidators(idl)]));
    const calls = [rich, checkout].flatMap((idl) => methodsOf(idl).map((entry) => ({ idl, ...entry })));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...calls),
        fc.oneof(fc.string(), fc.integer()),
        fc.array(fc.jsonValue(), { maxLength: 3 }),
        async ({ idl, name, method }, seed, params) => {
          const handler = methodOf(idl, { seed }, name);
          const answer = await answerOf(handler(...params.slice(0, method.parameters?.length ?? 0), { headers: {} }));
          const validator = validatorsOf.get(idl)![name].result;
          for (const value of method.stream ? (answer as unknown[]) : [answer]) {
            expect(validator.errors(value)).toEqual([]);
          }
        },
      ),
      { numRuns: 1000, seed: 39 },
    );
  });

  it('gives the same answer for the same seed, method and params, whatever the clock says', async () => {
    const first = await answerOf(methodOf(rich, { seed: 'a' }, 'Shop.items')(2, {}));
    vi.useFakeTimers({ now: new Date('1999-12-31T00:00:00Z') });
    const again = await answerOf(methodOf(rich, { seed: 'a' }, 'Shop.items')(2, {}));
    expect(again).toEqual(first);
    expect(await answerOf(methodOf(rich, { seed: 'b' }, 'Shop.items')(2, {}))).not.toEqual(first);
    expect(await answerOf(methodOf(rich, { seed: 'a' }, 'Shop.items')(3, {}))).not.toEqual(first);
  });

  it('makes timestamps near a base time derived from the seed', async () => {
    for (const seed of ['a', 'b', 7]) {
      const base = mockBaseTime(seed);
      const items = (await answerOf(methodOf(rich, { seed }, 'Shop.items')(1, {}))) as { at: string }[];
      for (const { at } of items) {
        const time = Date.parse(at);
        expect(time).toBeLessThanOrEqual(base);
        expect(time).toBeGreaterThan(base - 32 * 86_400_000);
      }
    }
    expect(mockBaseTime('a')).not.toBe(mockBaseTime('b'));
  });

  it('makes realistic values from field names: ids, names, emails, URLs, prices >= 0, a few items', () => {
    const products = methodOf(checkout, { seed: 1 }, 'CatalogService.listProducts')({}) as Record<string, unknown>[];
    expect(products.length).toBeGreaterThanOrEqual(2);
    expect(products.length).toBeLessThanOrEqual(4);
    for (const product of products) {
      expect(product.productId).toMatch(/^product_\d+$/);
      expect(product.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(product.price).toBeGreaterThanOrEqual(0);
      expect(product.stock).toBeGreaterThanOrEqual(0);
      if (product.imageUrl !== undefined) expect(product.imageUrl).toMatch(/^https:\/\/example\.(com|org|net)\/images\/\d+\.jpg$/);
    }
    const customer = methodOf(rich, { seed: 1 }, 'Shop.customer')('x', {}) as Record<string, unknown>;
    expect(customer.email).toMatch(/@example\./);
  });

  it('answers with the parameters a result field is named after (getCart(cartId) gives that cart)', () => {
    const cart = methodOf(checkout, {}, 'CartService.getCart')('cart_42', {}) as { cartId: string };
    expect(cart.cartId).toBe('cart_42');
  });

  it('uses @example values first: of the method, of a struct, of a field', async () => {
    expect(methodOf(rich, {}, 'Shop.greet')('x', {})).toBe('fixed answer');
    expect(methodOf(rich, {}, 'Shop.customer')('x', {})).toEqual({
      id: '9b2f4a52-4b7e-4b8e-9a61-2f1c0d2b6a10',
      createdAt: '2026-03-01T10:00:00Z',
      email: 'ada@example.com',
      score: 5,
    });
    const items = (await answerOf(methodOf(rich, {}, 'Shop.items')(1, {}))) as { tags?: string[] }[];
    for (const item of items) if (item.tags !== undefined) expect(item.tags).toEqual(['red', 'blue']);
  });

  it('meets exact bounds and yields a few items from a stream', async () => {
    expect(methodOf(rich, {}, 'Shop.size')({})).toBe(7);
    const items = (await answerOf(methodOf(rich, {}, 'Shop.feed')('2026-01-01T00:00:00Z', 'AAAA', {}))) as unknown[];
    expect(items).toHaveLength(3);
  });

  it('refuses an interface the IDL does not have', () => {
    expect(() => createMockHandlers(rich, { interfaces: ['Shops'] })).toThrow('mock: the IDL has no interface Shops (it has Shop)');
  });
});

describe('the playground IDL in mock mode, through createRpcServer', () => {
  it('answers 1,000 random valid calls with results the server validates and passes', async () => {
    const server = createRpcServer({ idl: checkout, handlers: createMockHandlers(checkout, { seed: 'playground' }) });
    const validators = compileValidators(checkout);
    const types = new MockTypes(checkout);
    const plainMethods = methodsOf(checkout).filter(({ method }) => !method.stream);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...plainMethods), fc.string(), async ({ name, method }, paramSeed) => {
        // Valid params, made by the generator under another seed, so that the call reaches the handler.
        const context = { random: new SeededRandom(paramSeed), baseTime: 0, useExamples: false, echo: new Map(), made: 0 };
        const params = (method.parameters ?? []).map((parameter) => types.value(parameter.type, parameter, context));
        const answer = (await server.handleJson({ jsonrpc: '2.0', id: 1, method: name, params }, { headers: {} })) as {
          result?: unknown;
          error?: unknown;
        };
        expect(answer.error).toBeUndefined();
        expect(validators[name].result.errors(answer.result)).toEqual([]);
      }),
      { numRuns: 1000, seed: 40 },
    );
  });
});

describe('the x-idlrpc-mock-error header, through createRpcServer', () => {
  const server = createRpcServer({ idl: rich, handlers: createMockHandlers(rich) });
  const call = (method: string, params: unknown[], error?: string) =>
    server.handleJson({ jsonrpc: '2.0', id: 1, method, params }, { headers: error === undefined ? {} : { [MOCK_ERROR_HEADER]: error } });

  it('answers every call of the request with the declared error it names', async () => {
    expect(await call('Shop.pay', [3], 'Busy')).toEqual({ jsonrpc: '2.0', id: 1, error: { code: 2002, message: 'Busy: try later' } });
    expect(await call('Shop.pay', [3], 'shop.NotFound')).toMatchObject({ error: { code: 2001 } });
    expect(await call('Shop.pay', [3])).toMatchObject({ result: { kind: expect.any(String) } });
  });

  it('answers a clear Invalid Request for an unknown or undeclared error name', async () => {
    expect(await call('Shop.pay', [3], 'Gone')).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid Request: x-idlrpc-mock-error names "Gone", but the IDL declares no such error (it raises NotFound, Busy)',
      },
    });
    expect(await call('Shop.find', ['x'], 'Busy')).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid Request: x-idlrpc-mock-error names "Busy", but Shop.find does not raise it (it raises NotFound)',
      },
    });
  });
});
