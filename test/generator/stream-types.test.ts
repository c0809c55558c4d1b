/**
 * The generated client and server code of stream methods under the generated (strict) tsconfig: a
 * handler written as an async generator yielding items or `streamEvent(item, id)` is accepted, one
 * yielding something else is refused, and the compiled server streams the items through the
 * generated serializers (a timestamp written as its ISO text). The client method is an
 * `AsyncIterable` of the items with `lastEventId`; compiled with the server and run over HTTP, it
 * reads the items back (timestamps as `Date`), resumes from `lastEventId` and throws declared errors
 * as their class.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, runNode, typeCheck } from './helpers.js';

const IDL = readFileSync(path.join(import.meta.dirname, 'fixtures', 'streams.idl'), 'utf8');

const HANDLERS = `import { streamEvent, type RpcContext } from './runtime/core.js';
import { createShopServer, type OrderService } from './server.js';
import { OrderNotFoundError, type Order } from './types.js';

const service: OrderService = {
  async *watchOrder(orderId: string, ctx: RpcContext) {
    if (orderId === 'missing') throw new OrderNotFoundError();
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

const USES = `import { HttpTransport } from './runtime/client.js';
import { OrderServiceClient } from './client.js';
import { OrderNotFoundError, type Order } from './types.js';

const client = new OrderServiceClient(new HttpTransport('http://127.0.0.1:1'));

export async function lastSeen(signal: AbortSignal): Promise<string | undefined> {
  const orders = client.watchOrder('o1', { signal, lastEventId: '3' });
  try {
    for await (const order of orders) {
      const seen: Order = order;
      if (seen.at.getTime() > 0 && seen.status === 'delivered') break;
    }
  } catch (error) {
    if (error instanceof OrderNotFoundError) return undefined;
    throw error;
  }
  return orders.lastEventId;
}
export const ticks: AsyncIterable<number> = client.ticks();
`;

const CLIENT_RUN = `import { createServer } from 'node:http';
import { HttpTransport } from './runtime/client.js';
import { createNodeListener } from './runtime/index.js';
import { OrderServiceClient } from './client.js';
import { server } from './handlers.js';
import { OrderNotFoundError } from './types.js';

const http = createServer(createNodeListener(server));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const address = http.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const client = new OrderServiceClient(new HttpTransport(\`http://127.0.0.1:\${port}/\`));
const seen: string[] = [];
const orders = client.watchOrder('o1');
for await (const order of orders) seen.push(\`\${order.status} \${order.at.toISOString()} #\${orders.lastEventId}\`);
const resumed: string[] = [];
for await (const order of client.watchOrder('o1', { lastEventId: '10' })) resumed.push(order.status);
const ticks: number[] = [];
for await (const tick of client.ticks(2)) ticks.push(tick);
let declared = '';
try {
  for await (const order of client.watchOrder('missing')) declared += order.status;
} catch (error) {
  declared = error instanceof OrderNotFoundError ? \`OrderNotFoundError \${error.code}\` : String(error);
}
const plain = await client.getOrder('o2');
http.close();
console.log(JSON.stringify({ seen, resumed, ticks, declared, plain: plain.at instanceof Date }));
`;

test('a generated stream client method is an AsyncIterable of its items with lastEventId; other item types are refused', async () => {
  const dir = freshDir('stream-client-types');
  const file = path.join(dir, 'shop.idl');
  writeFileSync(file, IDL);
  expect(await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', '-ts-gen-package-json', file])).toMatchObject({
    code: 0,
    stderr: '',
  });
  writeFileSync(path.join(dir, 'uses.ts'), USES);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES.replace('AsyncIterable<number>', 'AsyncIterable<string>'));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(/uses\.ts\(\d+,\d+\): error TS2322/);

  // Compiled with the handlers and run over HTTP: the client reads what the server streams.
  writeFileSync(path.join(dir, 'uses.ts'), USES);
  writeFileSync(path.join(dir, 'handlers.ts'), HANDLERS);
  writeFileSync(path.join(dir, 'run.ts'), CLIENT_RUN);
  expect(typeCheck(dir, true)).toEqual({ status: 0, output: '' });
  const ran = runNode(path.join(dir, 'dist', 'run.js'));
  expect(ran.status, ran.output).toBe(0);
  expect(JSON.parse(ran.output)).toEqual({
    seen: ['pending 1970-01-01T00:00:00.000Z #1', 'paid 1970-01-01T00:00:01.000Z #2'],
    resumed: ['pending', 'paid'],
    ticks: [0, 2, 4],
    declared: 'OrderNotFoundError 1001',
    plain: true,
  });
}, 180_000);
