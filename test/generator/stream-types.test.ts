/**
 * The generated server types of stream methods type-check under the generated (strict) tsconfig:
 * a handler written as an async generator yielding items or `streamEvent(item, id)` is accepted,
 * one yielding something else is refused; the compiled server streams the items through the
 * generated serializers (a timestamp written as its ISO text). (The client half is type-checked by the client runtime's
 * tests once `streamMethod` exists there.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, runNode, typeCheck } from './helpers.js';

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
    yield { id: orderId, status: 'pending', at: new Date(0) };
    yield streamEvent<Order>({ id: orderId, status: 'paid', at: new Date(1000) }, String(from + 2));
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

const RUN = `import { server } from './handlers.js';

const answer = await server.handleHttp({
  method: 'POST',
  path: '/',
  body: JSON.stringify({ jsonrpc: '2.0', method: 'OrderService.watchOrder', params: ['o1'], id: 7 }),
  headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'last-event-id': '5' },
});
let text = '';
for (let chunk = await answer.stream?.next(); chunk !== undefined; chunk = await answer.stream?.next()) text += chunk;
const events = text.split('\\n\\n').filter((event) => event !== '' && !event.startsWith(':'));
console.log(JSON.stringify({ status: answer.status, events }));
`;

test('a stream handler is an async generator of items or streamEvent(item, id); other items are refused', async () => {
  const dir = freshDir('stream-types');
  const file = path.join(dir, 'shop.idl');
  writeFileSync(file, IDL);
  expect(await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', '-ts-gen-package-json', file])).toMatchObject({
    code: 0,
    stderr: '',
  });
  // Only the handlers and what they import (server.ts, types.ts, the runtime): not the generated client.
  const tsconfig = JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8').replace(/^(?:\/\/|\/\*).*$/gm, ''));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: tsconfig.compilerOptions, files: ['handlers.ts'] }));
  writeFileSync(path.join(dir, 'handlers.ts'), HANDLERS);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });

  // Compiled and run: the generated server answers a stream call with the items, each written by
  // its generated serializer, the ids counted on from Last-Event-ID or set by streamEvent.
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: tsconfig.compilerOptions, files: ['handlers.ts', 'run.ts'] }),
  );
  writeFileSync(path.join(dir, 'run.ts'), RUN);
  expect(typeCheck(dir, true)).toEqual({ status: 0, output: '' });
  const ran = runNode(path.join(dir, 'dist', 'run.js'));
  expect(ran.status, ran.output).toBe(0);
  expect(JSON.parse(ran.output)).toEqual({
    status: 200,
    events: [
      'id: 6\ndata: {"jsonrpc":"2.0","method":"rpc.stream.item","params":{"id":7,"item":{"id":"o1","status":"pending","at":"1970-01-01T00:00:00.000Z"}}}',
      'id: 7\ndata: {"jsonrpc":"2.0","method":"rpc.stream.item","params":{"id":7,"item":{"id":"o1","status":"paid","at":"1970-01-01T00:00:01.000Z"}}}',
      'data: {"jsonrpc":"2.0","id":7,"result":null}',
    ],
  });

  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: tsconfig.compilerOptions, files: ['handlers.ts'] }));
  writeFileSync(path.join(dir, 'handlers.ts'), HANDLERS.replace("yield { id: orderId, status: 'pending', at: new Date(0) };", 'yield 42;'));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(/handlers\.ts\(\d+,\d+\): error TS2322/);
}, 180_000);
