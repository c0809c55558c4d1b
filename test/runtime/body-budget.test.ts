/**
 * maxBodyBytesInFlight over the Node adapter: bodies being received share one budget per server;
 * a body that does not fit gets 503 with `connection: close`, and the bytes come back when a body
 * is complete or its connection dies. (The memory it saves is measured in
 * test/hostile/runtime.test.ts; the fetch handler's budget is in adapters.test.ts.)
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRpcServer, listen, type RpcServer } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { post, serverHandle, type TestServer } from './helpers.js';

let rpc: RpcServer;
let server: TestServer;
const sockets: net.Socket[] = [];

beforeEach(async () => {
  rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 1000, maxBodyBytesInFlight: 2000 });
  server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server.close();
});

/** A JSON-RPC call of exactly `size` bytes. */
function callOfSize(size: number, id = 1): string {
  const text = (padding: string) => `{"jsonrpc":"2.0","method":"Calc.join","params":["${padding}","b","c"],"id":${id}}`;
  return text('x'.repeat(size - text('').length));
}

/** A raw connection that collects what the server sends and notes when the server closes it. */
function connect(head: string) {
  const socket = net.connect(server.port, '127.0.0.1');
  sockets.push(socket);
  socket.write(head);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, closed, received: () => received };
}

const headers = (extra: string) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}\r\n`;

/** Waits until the server has taken `bytes` from its budget (the server reads asynchronously). */
const budgetReaches = (bytes: number) => vi.waitFor(() => expect(rpc.bodyBudget.inUse).toBe(bytes), { timeout: 5_000, interval: 10 });

function expectServiceUnavailable(reply: string) {
  expect(reply).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
  expect(reply.toLowerCase()).toContain('\r\nconnection: close\r\n');
  expect(reply.toLowerCase()).toContain('\r\nretry-after: 1\r\n');
  expect(reply).toContain('\r\n\r\n{"error":"Service Unavailable","message":"too many request bodies in flight, retry later"}');
}

describe('maxBodyBytesInFlight (Node adapter)', () => {
  it('a declared Content-Length is taken before reading; one that does not fit gets 503 and the connection closes', async () => {
    const body = callOfSize(900);
    const first = connect(headers('Content-Length: 900\r\n') + body.slice(0, 100));
    await budgetReaches(900);
    const second = connect(headers('Content-Length: 900\r\n') + body.slice(0, 100));
    await budgetReaches(1800);
    const refused = connect(headers('Content-Length: 900\r\n'));
    expectServiceUnavailable(await refused.closed);
    expect(rpc.bodyBudget.inUse).toBe(1800);

    // A body that completes gives its bytes back, and is answered.
    first.socket.write(body.slice(100));
    const padding = (JSON.parse(body) as { params: string[] }).params[0];
    await vi.waitFor(() => expect(first.received()).toContain(`{"jsonrpc":"2.0","result":"${padding}-b-c","id":1}`), { timeout: 5_000 });
    await budgetReaches(900);
    // So does a connection that dies mid-body.
    second.socket.destroy();
    await budgetReaches(0);
    expect((await post(server.url, JSON.parse(callOfSize(900, 7)))).status).toBe(200);
  });

  it('a chunked body takes its chunks as they come and gets 503 when one does not fit', async () => {
    const holders = [connect(headers('Content-Length: 900\r\n') + '{'), connect(headers('Content-Length: 900\r\n') + '{')];
    await budgetReaches(1800);
    const chunked = connect(headers('Transfer-Encoding: chunked\r\n') + `96\r\n${'['.repeat(150)}\r\n`);
    await budgetReaches(1950);
    chunked.socket.write(`64\r\n${'['.repeat(100)}\r\n`);
    expectServiceUnavailable(await chunked.closed);
    expect(rpc.bodyBudget.inUse).toBe(1800);
    for (const holder of holders) holder.socket.destroy();
    await budgetReaches(0);
  });

  it('413 (not 503) for a body past maxBodyBytes, and nothing stays taken', async () => {
    const declared = connect(headers('Content-Length: 1001\r\n'));
    expect(await declared.closed).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    const chunked = connect(headers('Transfer-Encoding: chunked\r\n') + `3e9\r\n${'['.repeat(1001)}\r\n`);
    expect(await chunked.closed).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(rpc.bodyBudget.inUse).toBe(0);
  });

  it('a body with a foreign Content-Type is never read, so it takes nothing', async () => {
    const foreign = connect('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 900\r\n\r\n{');
    await vi.waitFor(() => expect(foreign.received()).toMatch(/^HTTP\/1\.1 415 Unsupported Media Type\r\n/), { timeout: 5_000 });
    expect(rpc.bodyBudget.inUse).toBe(0);
  });
});
