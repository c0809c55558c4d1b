/**
 * maxBodyBytesInFlight and the body pace over the Node adapter: the bytes of bodies that arrived
 * share one budget per server; a chunk that does not fit gets 503 with `connection: close`, and the
 * bytes come back when a body is complete or its connection dies. A body that arrives slower than
 * `bodyGraceMs` + bytes / `minBodyBytesPerSecond` gets 408. (The memory it saves is measured in
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

/** A raw connection to `port` that collects what the server sends and notes when the server closes it. */
function connectTo(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.write(head);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, closed, received: () => received };
}

/** A raw connection to the budgeted server. */
function connect(head: string) {
  return connectTo(server.port, head);
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
  it('bytes are taken as they arrive, not as announced; a chunk that does not fit gets 503 and the connection closes', async () => {
    const body = callOfSize(900);
    const first = connect(headers('Content-Length: 900\r\n') + body.slice(0, 100));
    await budgetReaches(100);
    const second = connect(headers('Content-Length: 900\r\n') + body.slice(0, 800));
    await budgetReaches(900);
    // An announced length takes nothing: a call still fits beside it.
    const idle = connect(headers('Content-Length: 900\r\n'));
    expect((await post(server.url, JSON.parse(callOfSize(900, 5)))).status).toBe(200);
    const third = connect(headers('Content-Length: 900\r\n') + body.slice(0, 800));
    await budgetReaches(1700);
    const refused = connect(headers('Content-Length: 900\r\n') + body.slice(0, 400));
    expectServiceUnavailable(await refused.closed);
    expect(rpc.bodyBudget.inUse).toBe(1700);

    // A connection that dies mid-body gives its bytes back.
    third.socket.destroy();
    idle.socket.destroy();
    await budgetReaches(900);
    // So does a body that completes, and it is answered.
    first.socket.write(body.slice(100));
    const padding = (JSON.parse(body) as { params: string[] }).params[0];
    await vi.waitFor(() => expect(first.received()).toContain(`{"jsonrpc":"2.0","result":"${padding}-b-c","id":1}`), { timeout: 5_000 });
    await budgetReaches(800);
    second.socket.destroy();
    await budgetReaches(0);
    expect((await post(server.url, JSON.parse(callOfSize(900, 7)))).status).toBe(200);
  });

  it('a chunked body takes its chunks as they come and gets 503 when one does not fit', async () => {
    const holders = [
      connect(headers('Content-Length: 1000\r\n') + '['.repeat(900)),
      connect(headers('Content-Length: 1000\r\n') + '['.repeat(900)),
    ];
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

describe('bodies that announce much and send little (Node adapter, default limits)', () => {
  let defaults: RpcServer;
  let defaultServer: TestServer;
  beforeEach(async () => {
    defaults = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    defaultServer = serverHandle(await listen(defaults, { port: 0, host: '127.0.0.1' }));
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await defaultServer.close();
  });

  it('70 connections announcing 1 MiB each and sending nothing: a 79-byte call still answers 200', async () => {
    let requests = 0;
    defaultServer.http.on('request', () => requests++);
    for (let i = 0; i < 70; i++) {
      const socket = net.connect(defaultServer.port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.write(headers(`Content-Length: ${1024 * 1024}\r\n`));
    }
    // Every one of them has been read up to its body, which never comes.
    await vi.waitFor(() => expect(requests).toBe(70), { timeout: 5_000, interval: 10 });
    const small = callOfSize(79);
    expect(small.length).toBe(79);
    const answer = await post(defaultServer.url, small);
    expect(answer.status).toBe(200);
    expect(answer.json).toStrictEqual({ jsonrpc: '2.0', result: `${(JSON.parse(small) as { params: string[] }).params[0]}-b-c`, id: 1 });
    // They are still hanging: nothing closed them meanwhile.
    expect(sockets.every((socket) => !socket.closed)).toBe(true);
  });
});

describe('the body pace (bodyGraceMs, minBodyBytesPerSecond)', () => {
  let paced: RpcServer;
  let pacedServer: TestServer;
  beforeEach(async () => {
    paced = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 1000, bodyGraceMs: 200, minBodyBytesPerSecond: 1000 });
    pacedServer = serverHandle(await listen(paced, { port: 0, host: '127.0.0.1' }));
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await pacedServer.close();
  });

  /** A raw connection to the paced server. */
  function connectPaced(head: string) {
    return connectTo(pacedServer.port, head);
  }

  function expectRequestTimeout(reply: string) {
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(reply.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(reply).toContain('\r\n\r\n{"error":"Request Timeout","message":"the request body arrived too slowly"}');
  }

  it('a body that stops arriving gets 408 and its connection closes; one that sent more is given more time', async () => {
    const silent = connectPaced(headers('Content-Length: 900\r\n'));
    // 800 bytes at 1000 bytes per second earn 800 ms beyond the 200 ms of grace.
    const sentMore = connectPaced(headers('Content-Length: 900\r\n') + callOfSize(900).slice(0, 800));
    await vi.waitFor(() => expect(paced.bodyBudget.inUse).toBe(800), { timeout: 5_000, interval: 10 });
    expectRequestTimeout(await silent.closed);
    expect(sentMore.socket.closed).toBe(false);
    expectRequestTimeout(await sentMore.closed);
    expect(paced.bodyBudget.inUse).toBe(0);
    expect(paced.bodyPace.watching).toBe(0);
  });

  it('a body that keeps arriving within its time is answered', async () => {
    const body = callOfSize(900);
    const steady = connectPaced(headers('Content-Length: 900\r\n') + body.slice(0, 450));
    await vi.waitFor(() => expect(paced.bodyBudget.inUse).toBe(450), { timeout: 5_000, interval: 10 });
    steady.socket.write(body.slice(450));
    await vi.waitFor(() => expect(steady.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/), { timeout: 5_000 });
    expect(paced.bodyPace.watching).toBe(0);
  });

  it('rejects a pace that is not a positive number', () => {
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, bodyGraceMs: 0 })).toThrow(
      'createRpcServer: bodyGraceMs (0) must be a positive number or Infinity',
    );
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, minBodyBytesPerSecond: Infinity })).toThrow(
      'createRpcServer: minBodyBytesPerSecond (Infinity) must be a positive number',
    );
  });
});
