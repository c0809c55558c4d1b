/**
 * The generated server types of stream methods type-check under the generated (strict) tsconfig:
 * a handler written as an async generator yielding items or `streamEvent(item, id)` is accepted,
 * one yielding something else is refused. (The client half is type-checked by the client runtime's
 * tests once `streamMethod` exists there.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, typeCheck } from './helpers.js';

const IDL = `namespace shop

struct Order {
    id      string
    status  string
    at      timestamp
}

errors {
    1001 OrderNotFound "no such order"
}

interface OrderService {
    watchOrder(orderId string) stream Order raises(OrderNotFound)

    ticks(every int [optional]) stream int [min=0]

    getOrder(orderId string) Order raises(OrderNotFound)
}
`;

const HANDLERS = `import { streamEvent, type RpcContext } from './runtime/core.js';
import { createShopServer, type OrderService } from './server.js';
import type { Order } from './types.js';

const service: OrderService = {
  async *watchOrder(orderId: string, ctx: RpcContext) {
    const from = Number(ctx.lastEventId ?? '0');
    yield { id: orderId, status: 'pending', at: new Date() };
    yield streamEvent<Order>({ id: orderId, status: 'paid', at: new Date() }, String(from + 2));
  },
  async ticks(every: number | undefined) {
    async function* count(): AsyncGenerator<number> {
      for (let i = 0; i < 3; i++) yield i * (every ?? 1);
    }
    return count();
  },
  getOrder(orderId: string): Order {
    return { id: orderId, status: 'paid', at: new Date() };
  },
};
export const server = createShopServer({ OrderService: service });
`;

test('a stream handler is an async generator of items or streamEvent(item, id); other items are refused', async () => {
  const dir = freshDir('stream-types');
  const file = path.join(dir, 'shop.idl');
  writeFileSync(file, IDL);
  expect(await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', file])).toMatchObject({ code: 0, stderr: '' });
  // Only the handlers and what they import (server.ts, types.ts, the runtime): not the generated client.
  const tsconfig = JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8').replace(/^(?:\/\/|\/\*).*$/gm, ''));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: tsconfig.compilerOptions, files: ['handlers.ts'] }));
  writeFileSync(path.join(dir, 'handlers.ts'), HANDLERS);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });

  writeFileSync(path.join(dir, 'handlers.ts'), HANDLERS.replace("yield { id: orderId, status: 'pending', at: new Date() };", 'yield 42;'));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(/handlers\.ts\(\d+,\d+\): error TS2322/);
}, 180_000);
