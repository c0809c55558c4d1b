/**
 * Fuzzing with fast-check over real HTTP: random bytes, random JSON, random JSON-RPC-shaped
 * messages and random verbs. Every answer must be well-formed HTTP with one of the statuses the
 * protocol allows and, for 200, a well-formed JSON-RPC response; the server keeps serving.
 * Two servers: one validating requests, one passing garbage straight to the handlers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutHandlers, post, startServer, type TestServer } from './helpers.js';

let servers: TestServer[] = [];
const RUNS = 150;

beforeAll(async () => {
  servers = [
    await startServer({ handlers: checkoutHandlers().handlers, maxBodyBytes: 8192 }),
    await startServer({ handlers: checkoutHandlers().handlers, maxBodyBytes: 8192, validateRequests: false, validateResponses: false }),
  ];
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const methods = [
  'CatalogService.listProducts',
  'CatalogService.getProduct',
  'CartService.addToCart',
  'CartService.getCart',
  'CartService.clearCart',
  'OrderService.createOrder',
  'OrderService.getOrder',
  'rpc-idl',
];

/** Checks one JSON-RPC response object. */
function expectResponse(response: unknown): void {
  expect(typeof response).toBe('object');
  const r = response as Record<string, unknown>;
  expect(r.jsonrpc).toBe('2.0');
  expect(Object.hasOwn(r, 'id')).toBe(true);
  expect(['string', 'number'].includes(typeof r.id) || r.id === null).toBe(true);
  if (Object.hasOwn(r, 'error')) {
    expect(Object.hasOwn(r, 'result')).toBe(false);
    const error = r.error as Record<string, unknown>;
    expect(Number.isInteger(error.code)).toBe(true);
    expect(typeof error.message).toBe('string');
    // No stack trace leaks without exposeErrors.
    expect(JSON.stringify(error)).not.toMatch(/\n\s+at /);
  } else {
    expect(Object.hasOwn(r, 'result')).toBe(true);
  }
}

/** Checks an HTTP answer to a POST. */
function expectWellFormed(answer: Awaited<ReturnType<typeof post>>): void {
  expect([200, 204, 413]).toContain(answer.status);
  if (answer.status === 204) {
    expect(answer.text).toBe('');
    return;
  }
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(answer.text);
  if (answer.status === 413) {
    expect(body).toStrictEqual({ error: 'Payload Too Large' });
    return;
  }
  if (Array.isArray(body)) {
    expect(body.length).toBeGreaterThan(0);
    body.forEach(expectResponse);
  } else {
    expectResponse(body);
  }
}

async function stillServes(server: TestServer): Promise<void> {
  const answer = await post(server.url, { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['none'], id: 'alive' });
  expect(answer.json).toStrictEqual({ jsonrpc: '2.0', result: false, id: 'alive' });
}

const anyId = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean(), fc.object());
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.jsonValue()),
    method: fc.oneof(fc.constantFrom(...methods), fc.string(), fc.jsonValue()),
    params: fc.oneof(
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('request', 'cartId', 'productId', 'orderId', 'x'), fc.jsonValue()),
      fc.jsonValue(),
    ),
    id: anyId,
  },
  { requiredKeys: [] },
);

describe.each([0, 1])('server %i', (index) => {
  const server = () => servers[index];

  it('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 10_000 }), async (bytes) => {
        expectWellFormed(await post(server().url, bytes));
      }),
      { numRuns: RUNS },
    );
    await stillServes(server());
  });

  it('random JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        expectWellFormed(await post(server().url, JSON.stringify(value) ?? 'null'));
      }),
      { numRuns: RUNS },
    );
    await stillServes(server());
  });

  it('random JSON-RPC-shaped messages and batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(message, fc.array(message, { maxLength: 5 })), async (value) => {
        expectWellFormed(await post(server().url, value));
      }),
      { numRuns: RUNS * 2 },
    );
    await stillServes(server());
  });

  it('random OpenAPI binding calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods.slice(0, -1)), fc.jsonValue({ maxDepth: 4 }), async (method, value) => {
        const answer = await post(`${server().url}/${method.replace('.', '/')}`, value);
        expect([200, 400, 413, 422, 500]).toContain(answer.status);
        expect(answer.headers.get('content-type')).toBe('application/json');
        const body = JSON.parse(answer.text);
        if (answer.status >= 400 && answer.status !== 413) {
          expect(Number.isInteger(body.code)).toBe(true);
          expect(typeof body.message).toBe('string');
        }
      }),
      { numRuns: RUNS },
    );
    await stillServes(server());
  });

  it('random verbs and paths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), fc.webPath(), async (method, path) => {
        const response = await fetch(server().url + (path.startsWith('/') ? path : `/${path}`), { method });
        expect(response.status).toBe(405);
        await response.arrayBuffer();
      }),
      { numRuns: RUNS },
    );
    await stillServes(server());
  });
});
