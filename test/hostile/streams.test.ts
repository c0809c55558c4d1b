/**
 * Hostile input against stream methods (docs/protocol.md §4), each case in its own child process
 * under a small heap and a hang guard (harness.ts): headers built to be expensive or unusable, and
 * readers that stop reading while the handlers could produce without end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

async function runCase(source: string): Promise<any> {
  const run = await runHostileScript(source);
  expect(run.hung, 'hung').toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** An IDL JSON with `Feed.items(size int) stream string`. */
const FEED_IDL = JSON.stringify({
  rootNamespace: 'h',
  checksum: 'h',
  interfaces: [
    {
      name: 'Feed',
      namespace: 'h',
      methods: [
        { name: 'items', parameters: [{ name: 'size', type: { builtIn: 'int' } }], returnType: { builtIn: 'string' }, stream: true },
      ],
    },
  ],
});

describe('stream methods under hostile input', () => {
  it('an Accept of 200,000 ranges and Last-Event-IDs that can be no event id: answered at once, the ids start over', async () => {
    const result = await runCase(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      const seen = [];
      const items = async function* (size, ctx) { seen.push(ctx.lastEventId === undefined ? 'absent' : ctx.lastEventId.length); yield 'x'; };
      const server = createRpcServer({ idl: ${FEED_IDL}, handlers: { Feed: { items } } });
      const post = (headers) => server.handleHttp({ method: 'POST', path: '/', body: '{"jsonrpc":"2.0","method":"Feed.items","params":[1],"id":1}', headers: { 'content-type': 'application/json', ...headers } });
      const first = async (headers) => { const answer = await post(headers); const chunk = answer.stream ? await answer.stream.next() : answer.body; answer.stream?.cancel(); return [answer.status, chunk.split('\\n')[0]]; };
      const answers = [
        await first({ accept: 'text/html;q=0.5;q=0.5,'.repeat(200000) }),
        await first({ accept: ';;;,,,=q=,*/*;q=abc' }),
        await first({ 'last-event-id': '7'.repeat(20000) }),
        await first({ 'last-event-id': 'a\\u0000b' }),
        await first({ 'last-event-id': '99999999999999999999' }),
      ];
      console.log(JSON.stringify({ answers, seen }));
    `);
    expect(result.answers).toEqual([
      [
        406,
        '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: Feed.items answers with a stream (text/event-stream), which the request\'s Accept header excludes"},"id":1}',
      ],
      [406, expect.stringContaining('-32600')],
      [200, 'id: 1'],
      [200, 'id: 1'],
      [200, 'id: 1'],
    ]);
    expect(result.seen).toEqual(['absent', 'absent', 20]);
  });

  it('500 readers that stop after one item of endless 64 KB streams: each handler is asked once more at most, memory stays flat', async () => {
    const result = await runCase(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      let asked = 0;
      const items = async function* (size) { for (;;) { asked++; yield 'x'.repeat(size); } };
      const server = createRpcServer({ idl: ${FEED_IDL}, handlers: { Feed: { items } } });
      const body = '{"jsonrpc":"2.0","method":"Feed.items","params":[65536],"id":1}';
      const answers = await Promise.all(Array.from({ length: 500 }, () => server.handleHttp({ method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' } })));
      for (const answer of answers) await answer.stream.next();
      globalThis.gc?.();
      const before = process.memoryUsage().heapUsed;
      // The readers stall; a server that produced ahead would fill the 256 MB heap within this time.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = process.memoryUsage().heapUsed;
      const open = server.openStreams;
      for (const answer of answers) answer.stream.cancel();
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log(JSON.stringify({ asked, open, closed: server.openStreams, grewMb: Math.round((after - before) / 1048576) }));
    `);
    expect(result.asked).toBeLessThanOrEqual(500 * 2);
    expect(result.open).toBe(500);
    expect(result.closed).toBe(0);
    expect(result.grewMb).toBeLessThan(64);
  });

  it('2,000 stream requests against maxStreams 100: 100 streams, the rest 503 at once, nothing held for them', async () => {
    const result = await runCase(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      const items = async function* (size, ctx) { yield 'x'; await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)); };
      const server = createRpcServer({ idl: ${FEED_IDL}, handlers: { Feed: { items } }, maxStreams: 100 });
      const body = '{"jsonrpc":"2.0","method":"Feed.items","params":[1],"id":1}';
      const answers = await Promise.all(Array.from({ length: 2000 }, () => server.handleHttp({ method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' } })));
      const statuses = {};
      for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const open = server.openStreams;
      await server.closeStreams();
      console.log(JSON.stringify({ statuses, open, closed: server.openStreams }));
    `);
    expect(result).toEqual({ statuses: { 200: 100, 503: 1900 }, open: 100, closed: 0 });
  });
});
