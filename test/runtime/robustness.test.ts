/**
 * The server never falls over: handlers that throw odd values, hang or return garbage; bodies
 * that are huge, not UTF-8, deeply nested or try to pollute prototypes; slow and idle connections.
 * After each attack the same server must still answer a normal call.
 */
import net from 'node:net';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRpcServer, listen, RpcError, type RpcContext } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { post, serverHandle, type TestServer } from './helpers.js';

type Behaviour = (ctx: RpcContext) => unknown;
/** What `Calc.ping` does in the current test. */
let behaviour: Behaviour = () => true;
const received: unknown[] = [];
let server: TestServer;
let httpServer: http.Server;
let logged: unknown[][] = [];
let throwingLogger = false;

beforeAll(async () => {
  const rpc = createRpcServer({
    idl: calcIdl,
    handlers: {
      Calc: {
        ...calcHandlers.Calc,
        ping: (ctx: RpcContext) => behaviour(ctx),
        echoTree: (tree: unknown) => {
          received.push(tree);
          naiveDeepMerge({}, tree);
          return tree;
        },
      },
    },
    validateResponses: false,
    handlerTimeoutMs: 200,
    maxBodyBytes: 8192,
    logger: {
      error: (...args) => {
        logged.push(args);
        if (throwingLogger) throw new Error('logger broke');
      },
    },
  });
  httpServer = await listen(rpc, { port: 0, host: '127.0.0.1', headersTimeoutMs: 1_000, requestTimeoutMs: 1_500, keepAliveTimeoutMs: 300 });
  server = serverHandle(httpServer);
});
afterAll(() => server?.close());
afterEach(async () => {
  behaviour = () => true;
  throwingLogger = false;
  logged = [];
  // The same server still serves a normal call after every attack.
  expect((await post(server.url, { jsonrpc: '2.0', method: 'Calc.add', params: [2, 3], id: 'alive' })).json).toStrictEqual({
    jsonrpc: '2.0',
    result: 5,
    id: 'alive',
  });
});

/** The classic vulnerable merge: assigns through `__proto__` / `constructor.prototype` when present. */
function naiveDeepMerge(target: Record<string, any>, source: unknown): void {
  if (typeof source !== 'object' || source === null) return;
  for (const key in source as Record<string, unknown>) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      naiveDeepMerge(target[key], value);
    } else {
      target[key] = value;
    }
  }
}

const ping = (id: unknown = 1) => post(server.url, { jsonrpc: '2.0', method: 'Calc.ping', id });
const internalError = (id: unknown) => ({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id });

/** Handlers that go wrong in every way we know; each must give -32603 and a log line. */
const misbehaviours: [string, Behaviour][] = [
  [
    'throw a string',
    () => {
      throw 'plain string';
    },
  ],
  [
    'throw undefined',
    () => {
      throw undefined;
    },
  ],
  [
    'throw null',
    () => {
      throw null;
    },
  ],
  [
    'throw an object without prototype',
    () => {
      throw Object.create(null);
    },
  ],
  [
    'throw an object whose toString throws',
    () => {
      throw {
        toString() {
          throw new Error('nested');
        },
      };
    },
  ],
  ['reject a promise', () => Promise.reject(new Error('async failure'))],
  ['return a BigInt', () => 10n],
  [
    'return a cycle',
    () => {
      const a: any = {};
      a.self = a;
      return a;
    },
  ],
  [
    'return an object with a throwing getter',
    () => ({
      get bad() {
        throw new Error('getter');
      },
    }),
  ],
  ['return a function', () => () => 1],
  ['return a symbol', () => Symbol('x')],
  ['return an object whose toJSON gives undefined', () => ({ toJSON: () => undefined })],
  [
    'return an object whose toJSON getter throws',
    () => ({
      get toJSON(): never {
        throw new Error('getter');
      },
    }),
  ],
  [
    'return a thenable that throws',
    () => ({
      then() {
        throw new Error('bad thenable');
      },
    }),
  ],
  [
    'throw an RpcError whose data has a BigInt',
    () => {
      throw new RpcError(7, 'x', { n: 1n });
    },
  ],
];

describe('handlers that misbehave', () => {
  it.each(misbehaviours)('%s: -32603 Internal error, no details, logged', async (_, misbehave) => {
    behaviour = misbehave;
    const answer = await ping(1);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(JSON.stringify(internalError(1)));
    expect(logged.length).toBeGreaterThan(0);
  });

  // A batch is serialized in one go when it can be; a broken member must still fail alone.
  it.each(misbehaviours)('%s in a batch: that member gets -32603, the others their results', async (_, misbehave) => {
    behaviour = misbehave;
    const answer = await post(server.url, [
      { jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 'before' },
      { jsonrpc: '2.0', method: 'Calc.ping', id: 'broken' },
      { jsonrpc: '2.0', method: 'Calc.add', params: [3, 4], id: 'after' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(
      JSON.stringify([{ jsonrpc: '2.0', result: 3, id: 'before' }, internalError('broken'), { jsonrpc: '2.0', result: 7, id: 'after' }]),
    );
    expect(logged.length).toBeGreaterThan(0);
  });

  it('a broken logger changes nothing', async () => {
    throwingLogger = true;
    behaviour = () => {
      throw new Error('x');
    };
    expect((await ping(2)).json).toStrictEqual(internalError(2));
  });

  it('a hanging handler times out with -32603 and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    behaviour = (ctx) => {
      signal = ctx.signal;
      return new Promise(() => undefined);
    };
    expect((await ping(3)).json).toStrictEqual(internalError(3));
    expect(signal?.aborted).toBe(true);
    expect(String(logged[0][1])).toContain('Calc.ping did not finish within 200 ms');
  });

  it('a client that goes away aborts the handler signal', async () => {
    let signal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    behaviour = (ctx) => {
      signal = ctx.signal;
      started();
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(true)));
    };
    const controller = new AbortController();
    const call = fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"Calc.ping","id":1}',
      signal: controller.signal,
    }).catch((e) => e);
    await running;
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    await new Promise<void>((resolve) => (signal!.aborted ? resolve() : signal!.addEventListener('abort', () => resolve())));
    expect(signal!.aborted).toBe(true);
  });
});

describe('timeouts and signals (the signal is built when first read; one timer serves every call)', () => {
  it('a signal first read after the handler timed out is already aborted, with the timeout as reason', async () => {
    let context: RpcContext | undefined;
    behaviour = (ctx) => {
      context = ctx;
      return new Promise(() => undefined);
    };
    expect((await ping(4)).json).toStrictEqual(internalError(4));
    expect(context!.signal.aborted).toBe(true);
    expect(String(context!.signal.reason)).toContain('Calc.ping did not finish within 200 ms');
  });

  it('hanging members of a batch each time out while the others answer, and later calls time out too', async () => {
    behaviour = () => new Promise(() => undefined);
    const batch = [
      { jsonrpc: '2.0', method: 'Calc.ping', id: 'a' },
      { jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 'b' },
      { jsonrpc: '2.0', method: 'Calc.ping', id: 'c' },
    ];
    expect((await post(server.url, batch)).json).toStrictEqual([
      internalError('a'),
      { jsonrpc: '2.0', result: 3, id: 'b' },
      internalError('c'),
    ]);
    expect(logged.filter((entry) => String(entry[1]).includes('did not finish'))).toHaveLength(2);
    // The shared timer is armed again for calls that start after the first ones expired.
    expect((await ping(5)).json).toStrictEqual(internalError(5));
    expect(logged.filter((entry) => String(entry[1]).includes('did not finish'))).toHaveLength(3);
  });

  it('a handler that settles before the timeout is answered normally, also when it reads the signal', async () => {
    behaviour = async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return !ctx.signal.aborted;
    };
    expect((await ping(6)).json).toStrictEqual({ jsonrpc: '2.0', result: true, id: 6 });
    expect(logged).toStrictEqual([]);
  });

  it('a handler may still replace ctx.signal, as with a plain field', async () => {
    const replacement = new AbortController().signal;
    behaviour = (ctx) => {
      (ctx as { signal: AbortSignal }).signal = replacement;
      return ctx.signal === replacement;
    };
    expect((await ping(7)).json).toStrictEqual({ jsonrpc: '2.0', result: true, id: 7 });
  });

  it('a signal first read after the client went away is already aborted', async () => {
    let context: RpcContext | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: (value: boolean) => void;
    behaviour = (ctx) => {
      context = ctx;
      started();
      return new Promise((resolve) => (finish = resolve));
    };
    // A fresh connection (no keep-alive pool), so its close is the one we wait for.
    const closed = new Promise<void>((resolve) => httpServer.once('connection', (socket) => socket.once('close', () => resolve())));
    const request = http.request(server.url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } });
    request.on('error', () => undefined);
    request.end('{"jsonrpc":"2.0","method":"Calc.ping","id":1}');
    await running;
    request.destroy();
    await closed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(context!.signal.aborted).toBe(true);
    finish(true);
  });
});

describe('big batches', () => {
  it('a full batch runs every call and leaks no listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', method: 'Calc.add', params: [i, 1], id: i }));
      const answer = await post(server.url, batch);
      expect(answer.json).toStrictEqual(batch.map((_, i) => ({ jsonrpc: '2.0', result: i + 1, id: i })));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toStrictEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('hostile bodies', () => {
  it('__proto__ and constructor keys cannot pollute prototypes', async () => {
    received.length = 0;
    const attack =
      '{"jsonrpc":"2.0","method":"Calc.echoTree","id":1,"params":[{"label":"x","__proto__":{"polluted":"yes"},' +
      '"constructor":{"prototype":{"polluted":"yes"}},"children":[{"label":"y","__proto__":{"polluted":"yes"}}]}]}';
    const answer = await post(server.url, attack);
    expect(answer.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    const [tree] = received as Record<string, any>[];
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype);
    expect(Object.hasOwn(tree, '__proto__')).toBe(false);
    expect(Object.hasOwn(tree.children[0], '__proto__')).toBe(false);
    expect(tree.constructor).toStrictEqual({ prototype: { polluted: 'yes' } });
    expect(answer.text).toBe(
      '{"jsonrpc":"2.0","result":{"label":"x","constructor":{"prototype":{"polluted":"yes"}},"children":[{"label":"y"}]},"id":1}',
    );
  });

  it('named params cannot reach inherited members', async () => {
    const body = (
      await post(server.url, '{"jsonrpc":"2.0","method":"Calc.add","params":{"a":1,"constructor":2,"__proto__":{"b":3}},"id":1}')
    ).json;
    expect(body.error.data.errors).toStrictEqual([
      { path: 'params.constructor', message: "unknown parameter 'constructor'" },
      { path: 'params', message: "missing parameter 'b'" },
    ]);
  });

  it('invalid UTF-8 is a parse error', async () => {
    const answer = await post(server.url, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(answer.status).toBe(200);
    expect(answer.json).toStrictEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: body is not valid UTF-8' },
      id: null,
    });
  });

  it('deeply nested JSON is a parse error, not a stack overflow', async () => {
    for (const text of [
      '['.repeat(2000) + ']'.repeat(2000),
      `{"jsonrpc":"2.0","method":"Calc.echoTree","params":[${'{"a":'.repeat(500)}1${'}'.repeat(500)}],"id":1}`,
    ]) {
      const answer = await post(server.url, text);
      expect(answer.json).toStrictEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: JSON nested deeper than 128 levels' },
        id: null,
      });
    }
    const mega = '['.repeat(4000);
    expect((await post(server.url, mega)).json.error.code).toBe(-32700);
  });

  it('a chunked body past maxBodyBytes gets 413 while the client is still sending', async () => {
    const result = await new Promise<{ status?: number; body: string; endedFirst: boolean }>((resolve) => {
      let ended = false;
      let answered = false;
      let sent = 0;
      const req = http.request(`${server.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        answered = true;
        const endedFirst = ended;
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body, endedFirst }));
      });
      req.on('error', () => undefined); // the server closes the connection after its 413
      const chunk = Buffer.alloc(1024, 0x20);
      // Keep sending until the answer arrives; a server that waited for the end of the body would
      // only answer after the 4 MiB cap.
      const pump = () => {
        if (answered || req.destroyed) return;
        if (sent >= 4 * 1024 * 1024) {
          ended = true;
          req.end();
          return;
        }
        sent += chunk.length;
        req.write(chunk, () => setImmediate(pump));
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.body).toBe('{"error":"Payload Too Large"}');
    expect(result.endedFirst).toBe(false);
  });
});

describe('slow and idle connections', () => {
  /** Opens a raw connection, writes `text`, and resolves with what came back once the server closes it. */
  const rawExchange = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });

  it('a client that never finishes its headers is cut off', async () => {
    const reply = await rawExchange('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: appl');
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout|^$/);
  });

  it('a client that never finishes its body is cut off', async () => {
    const reply = await rawExchange(
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout|^$/);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const body = '{"jsonrpc":"2.0","method":"Calc.ping","id":1}';
    const reply = await rawExchange(
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(reply).toContain('\r\n\r\n{"jsonrpc":"2.0","result":true,"id":1}');
  });
});
