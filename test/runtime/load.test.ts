/**
 * A bounded load test: 2,000 calls at concurrency 50 over loopback against handlers that sometimes
 * throw. Every request gets exactly one answer with its own id, every handler runs exactly once,
 * and the server still answers afterwards.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRpcServer, listen, RpcError } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { post, serverHandle, type TestServer } from './helpers.js';

const TOTAL = 2_000;
const CONCURRENCY = 50;
const runs = new Map<number, number>();
let server: TestServer;

/** What call `i` must produce: most succeed, some throw an unexpected error, some a declared one. */
const expectedOutcome = (i: number) => (i % 7 === 0 ? 'internal' : i % 11 === 0 ? 'declared' : 'ok');

beforeAll(async () => {
  const rpc = createRpcServer({
    idl: calcIdl,
    handlers: {
      Calc: {
        ...calcHandlers.Calc,
        async add(a: number, b: number) {
          runs.set(a, (runs.get(a) ?? 0) + 1);
          // Let calls overlap inside the server.
          await new Promise((resolve) => setTimeout(resolve, a % 3));
          if (expectedOutcome(a) === 'internal') throw new Error(`failure ${a}`);
          if (expectedOutcome(a) === 'declared') throw new RpcError(1001, `CartNotFound: ${a}`);
          return a + b;
        },
      },
    },
    logger: { error() {} },
  });
  server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
});
afterAll(() => server?.close());

it(`answers ${TOTAL} calls at concurrency ${CONCURRENCY}, each exactly once`, async () => {
  const answers = new Map<number, unknown>();
  let duplicates = 0;
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      const answer = await post(server.url, { jsonrpc: '2.0', method: 'Calc.add', params: [i, 1], id: i });
      expect(answer.status).toBe(200);
      if (answers.has(answer.json.id)) duplicates++;
      answers.set(answer.json.id, answer.json);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  expect(duplicates).toBe(0);
  expect(answers.size).toBe(TOTAL);
  for (let i = 0; i < TOTAL; i++) {
    expect(runs.get(i)).toBe(1);
    const outcome = expectedOutcome(i);
    const expected =
      outcome === 'ok'
        ? { jsonrpc: '2.0', result: i + 1, id: i }
        : outcome === 'internal'
          ? { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: i }
          : { jsonrpc: '2.0', error: { code: 1001, message: `CartNotFound: ${i}` }, id: i };
    expect(answers.get(i)).toStrictEqual(expected);
  }
  expect((await post(server.url, { jsonrpc: '2.0', method: 'Calc.ping', id: 'after' })).json).toStrictEqual({
    jsonrpc: '2.0',
    result: true,
    id: 'after',
  });
});
