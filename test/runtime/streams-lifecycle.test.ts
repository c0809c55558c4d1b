/**
 * The life of a stream on the server (docs/runtime.md, "Streams"): backpressure, cancelling (the
 * handler's `finally` runs), `maxStreams`, `closeStreams`, heartbeats and the time limits, and many
 * streams at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RpcContext } from '../../runtime/server.js';
import { messagesOf, post, readAll, rpc, serverWith } from './streams-helpers.js';

/** Resolves when `signal` aborts (a handler waiting for something that never comes but its end). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Lets every pending promise reaction run (a generator would run ahead now if it were asked). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('backpressure', () => {
  it('asks the handler for an item only when the adapter asks for a chunk', async () => {
    let produced = 0;
    const { server } = serverWith({
      count: async function* () {
        for (;;) {
          produced++;
          yield produced;
        }
      },
    });
    const answer = await server.handleHttp(post(rpc('OrderService.count', [0])));
    await settle();
    expect(produced).toBe(0);
    expect(await answer.stream!.next()).toMatch(/^id: 1\n/);
    await settle();
    expect(produced).toBe(1);
    expect(await answer.stream!.next()).toMatch(/^id: 2\n/);
    await settle();
    expect(produced).toBe(2);
    answer.stream!.cancel();
  });
});

describe('cancelling', () => {
  it("aborts ctx.signal, runs the generator's finally and ends the answer when the adapter cancels", async () => {
    const finished = vi.fn();
    let signal: AbortSignal | undefined;
    const { server } = serverWith({
      count: async function* (_to: number, ctx: RpcContext) {
        signal = ctx.signal;
        try {
          yield 1;
          await aborted(ctx.signal);
          yield 2;
        } finally {
          finished(ctx.signal.aborted);
        }
      },
    });
    const answer = await server.handleHttp(post(rpc('OrderService.count', [0])));
    const stream = answer.stream!;
    expect(await stream.next()).toMatch(/^id: 1\n/);
    const waiting = stream.next();
    await settle();
    expect(server.openStreams).toBe(1);
    stream.cancel();
    stream.cancel();
    expect(await waiting).toBeUndefined();
    expect(await stream.next()).toBeUndefined();
    expect(signal?.aborted).toBe(true);
    await vi.waitFor(() => expect(finished).toHaveBeenCalledWith(true));
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });

  it('runs the finally of a generator suspended at a yield the adapter never asked past', async () => {
    const finished = vi.fn();
    const { server } = serverWith({
      count: async function* () {
        try {
          yield 1;
          yield 2;
        } finally {
          finished();
        }
      },
    });
    const answer = await server.handleHttp(post(rpc('OrderService.count', [0])));
    await answer.stream!.next();
    answer.stream!.cancel();
    await vi.waitFor(() => expect(finished).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });

  it("cancels when the request's signal aborts (the client went away)", async () => {
    const finished = vi.fn();
    const { server } = serverWith({
      count: async function* (_to: number, ctx: RpcContext) {
        try {
          await aborted(ctx.signal);
          yield 1;
        } finally {
          finished();
        }
      },
    });
    const client = new AbortController();
    const answer = await server.handleHttp({ ...post(rpc('OrderService.count', [0])), signal: client.signal });
    const waiting = answer.stream!.next();
    await settle();
    client.abort();
    expect(await waiting).toBeUndefined();
    await vi.waitFor(() => expect(finished).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });
});

describe('maxStreams', () => {
  it('answers 503 with -32000 past maxStreams, and takes streams again once one has ended', async () => {
    const { server } = serverWith(
      {
        count: async function* (_to: number, ctx: RpcContext) {
          yield 1;
          await aborted(ctx.signal);
        },
      },
      { maxStreams: 2 },
    );
    const first = await server.handleHttp(post(rpc('OrderService.count', [0], 1)));
    const second = await server.handleHttp(post(rpc('OrderService.count', [0], 2)));
    const third = await server.handleHttp(post(rpc('OrderService.count', [0], 3)));
    expect(server.openStreams).toBe(2);
    expect(third.status).toBe(503);
    expect(third.stream).toBeUndefined();
    expect(third.headers).toEqual({ 'content-type': 'application/json', 'retry-after': '1' });
    expect(JSON.parse(third.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Server busy: 2 streams are open, the most this server takes (maxStreams)' },
      id: 3,
    });
    first.stream!.cancel();
    await vi.waitFor(() => expect(server.openStreams).toBe(1));
    const fourth = await server.handleHttp(post(rpc('OrderService.count', [0], 4)));
    expect(fourth.status).toBe(200);
    second.stream!.cancel();
    fourth.stream!.cancel();
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });

  it('holds 1,000 concurrent streams by default, refuses the next, and ends every one cleanly', async () => {
    let finished = 0;
    const { server } = serverWith({
      count: async function* (to: number) {
        try {
          for (let n = 1; n <= to; n++) {
            await new Promise((resolve) => setImmediate(resolve));
            yield n;
          }
        } finally {
          finished++;
        }
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, index) => server.handleHttp(post(rpc('OrderService.count', [3], index)))),
    );
    expect(server.openStreams).toBe(1000);
    const refused = await server.handleHttp(post(rpc('OrderService.count', [3], 'one too many')));
    expect(refused.status).toBe(503);
    const read = await Promise.all(answers.map(readAll));
    for (const [index, chunks] of read.entries()) {
      expect(messagesOf(chunks)).toEqual([
        { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: index, item: 1 } },
        { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: index, item: 2 } },
        { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: index, item: 3 } },
        { jsonrpc: '2.0', id: index, result: null },
      ]);
    }
    expect(finished).toBe(1000);
    expect(server.openStreams).toBe(0);
  });
});

describe('closeStreams', () => {
  it('ends every open stream with a reconnect message, aborts the handlers, resolves once their finally ran, and refuses new streams', async () => {
    const finished = vi.fn();
    const { server } = serverWith(
      {
        count: async function* (_to: number, ctx: RpcContext) {
          try {
            yield 1;
            await aborted(ctx.signal);
            yield 2;
          } finally {
            await new Promise((resolve) => setImmediate(resolve));
            finished(ctx.signal.reason?.message);
          }
        },
      },
      { streamRetryMs: 2500 },
    );
    const answers = [
      await server.handleHttp(post(rpc('OrderService.count', [0], 'a'))),
      await server.handleHttp(post({ to: 0 }, {}, '/OrderService/count')),
    ];
    expect(await answers[0].stream!.next()).toMatch(/^id: 1\n/);
    const waiting = answers[0].stream!.next();
    expect(await answers[1].stream!.next()).toMatch(/^event: item\nid: 1\n/);

    await server.closeStreams();
    expect(finished.mock.calls).toEqual([['the server is shutting down'], ['the server is shutting down']]);
    expect(server.openStreams).toBe(0);
    expect(await waiting).toBe('retry: 2500\ndata: {"jsonrpc":"2.0","method":"rpc.stream.reconnect","params":{"id":"a"}}\n\n');
    expect(await answers[0].stream!.next()).toBeUndefined();
    expect(await readAll(answers[1])).toEqual(['event: reconnect\nretry: 2500\ndata: null\n\n']);

    const later = await server.handleHttp(post(rpc('OrderService.count', [0], 'c')));
    expect(later.status).toBe(503);
    expect(JSON.parse(later.body).error.message).toBe('Server busy: the server is shutting down');
    expect(later.headers['retry-after']).toBe('3');
  });

  it('resolves at once with no stream open', async () => {
    const { server } = serverWith({});
    await server.closeStreams();
    expect(server.openStreams).toBe(0);
  });
});

describe('heartbeats and time limits', () => {
  it('sends a heartbeat comment while the handler is quiet, then a reconnect message past streamIdleTimeoutMs', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const { server } = serverWith(
      {
        count: async function* (_to: number, ctx: RpcContext) {
          signal = ctx.signal;
          yield 1;
          await aborted(ctx.signal);
        },
      },
      { streamHeartbeatMs: 1000, streamIdleTimeoutMs: 3500 },
    );
    const stream = (await server.handleHttp(post(rpc('OrderService.count', [0])))).stream!;
    expect(await stream.next()).toMatch(/^id: 1\n/);
    const chunks: (string | undefined)[] = [];
    for (let read = 0; read < 4; read++) {
      const next = stream.next();
      await vi.advanceTimersByTimeAsync(1000);
      chunks.push(await next);
    }
    expect(chunks).toEqual([
      ': \n\n',
      ': \n\n',
      ': \n\n',
      'retry: 1000\ndata: {"jsonrpc":"2.0","method":"rpc.stream.reconnect","params":{"id":1}}\n\n',
    ]);
    expect(signal?.aborted).toBe(true);
    expect(await stream.next()).toBeUndefined();
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });

  it('cuts a stream at streamMaxDurationMs with a reconnect message, however busy it is', async () => {
    vi.useFakeTimers();
    const { server } = serverWith(
      {
        count: async function* () {
          for (let n = 1; ; n++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            yield n;
          }
        },
      },
      { streamMaxDurationMs: 1000, streamHeartbeatMs: Number.POSITIVE_INFINITY },
    );
    const stream = (await server.handleHttp(post(rpc('OrderService.count', [0])))).stream!;
    const chunks: string[] = [];
    for (;;) {
      const next = stream.next();
      await vi.advanceTimersByTimeAsync(100);
      const chunk = await next;
      if (chunk === undefined) break;
      chunks.push(chunk);
    }
    expect(chunks.at(-1)).toBe('retry: 1000\ndata: {"jsonrpc":"2.0","method":"rpc.stream.reconnect","params":{"id":1}}\n\n');
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.slice(0, -1).every((chunk) => chunk.startsWith('id: '))).toBe(true);
    await vi.waitFor(() => expect(server.openStreams).toBe(0));
  });

  it('does not apply handlerTimeoutMs to a stream', async () => {
    vi.useFakeTimers();
    const { server } = serverWith(
      {
        // A promise of the iterable, slower than handlerTimeoutMs, then an item as slow.
        count: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5000));
          return (async function* () {
            await new Promise((resolve) => setTimeout(resolve, 5000));
            yield 1;
          })();
        },
      },
      { handlerTimeoutMs: 1000 },
    );
    const stream = (await server.handleHttp(post(rpc('OrderService.count', [0])))).stream!;
    const next = stream.next();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await next).toMatch(/^id: 1\n/);
    const end = stream.next();
    await vi.advanceTimersByTimeAsync(1);
    expect(await end).toBe('data: {"jsonrpc":"2.0","id":1,"result":null}\n\n');
  });

  it('refuses stream options that are not positive whole numbers', () => {
    expect(() => serverWith({}, { maxStreams: 0 })).toThrow('createRpcServer: maxStreams (0) must be a positive whole number');
    expect(() => serverWith({}, { streamHeartbeatMs: -1 })).toThrow(
      'createRpcServer: streamHeartbeatMs (-1) must be a positive whole number or Infinity',
    );
  });
});
