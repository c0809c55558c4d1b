/**
 * Hostile MCP bodies against the binding (docs/mcp.md), each case in its own child process
 * (harness.ts): deep and huge JSON, arguments of the wrong types, tool names `Object.prototype`
 * has, a batch one over `maxBatchSize`, garbage and enormous cursors, a huge or odd
 * `MCP-Protocol-Version`, a body over `maxBodyBytes`, and a flood of notifications. Every one gets a
 * clear answer (with the JSON path where a value is wrong); the server never crashes or keeps what
 * it was sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript, type ChildRun } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

/** A server with one tool `Thing_put(item: Item) int` (Item: `{ name: string, count: int }`), maxBatchSize 5, maxBodyBytes 1 MB. */
const SERVER = `
const { createRpcServer } = await import(DIST + 'runtime/index.js');
const { mcpBinding } = await import(DIST + 'runtime/mcp/index.js');
const idl = {
  rootNamespace: 'h', checksum: 'h',
  interfaces: [{ name: 'Thing', namespace: 'h', methods: [
    { name: 'put', parameters: [{ name: 'item', type: { userDefined: 'Item' } }], returnType: { builtIn: 'int' } },
  ] }],
  structs: [{ name: 'Item', namespace: 'h', fields: [
    { name: 'name', type: { builtIn: 'string' } }, { name: 'count', type: { builtIn: 'int' } },
  ] }],
  enums: [],
};
const server = createRpcServer({
  idl, handlers: { Thing: { put: (item) => item.count } }, maxBatchSize: 5, maxBodyBytes: 1_000_000,
  mcp: mcpBinding({ expose: ['Thing'] }),
});
const post = async (body, headers = {}) => {
  const answer = await server.handleHttp({ method: 'POST', path: '/mcp', contentType: 'application/json', headers, body });
  return { status: answer.status, length: answer.body.length, body: answer.body === '' ? null : JSON.parse(answer.body) };
};
const call = (params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
`;

/** Runs `source` after SERVER and returns the JSON its last stdout line holds. */
async function runCase(source: string): Promise<any> {
  const run: ChildRun = await runHostileScript(SERVER + source);
  expect(run.hung, 'hung').toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** The `{ code, name, message }` of an isError tool result. */
const toolError = (answer: any) => JSON.parse(answer.body.result.content[0].text);

describe('hostile MCP bodies', () => {
  it('JSON nested 100,000 deep gets 400 Parse error, in arguments as at the top', async () => {
    const out = await runCase(`
const deep = '['.repeat(100_000) + ']'.repeat(100_000);
console.log(JSON.stringify([await post(call({ name: 'Thing_put', arguments: { item: 0 } }).replace('0}}', deep + '}}')), await post(deep)]));
`);
    for (const answer of out) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/^Parse error: JSON nested deeper than \d+ levels/);
    }
  }, 70_000);

  it('arguments of the wrong types are an isError result naming each JSON path in the request; a huge params object is answered', async () => {
    const out = await runCase(`
const junk = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => ['k' + i, i]));
console.log(JSON.stringify({
  wrong: await post(call({ name: 'Thing_put', arguments: { item: { name: 5, count: 'many' } } })),
  notObject: await post(call({ name: 'Thing_put', arguments: [1, 2] })),
  huge: await post(call({ ...junk, name: 'Thing_put', arguments: { item: { name: 'a', count: 2 } } })),
  hugeArguments: await post(call({ name: 'Thing_put', arguments: { ...junk, item: { name: 'a', count: 2 } } })),
}));
`);
    const wrong = toolError(out.wrong);
    expect(out.wrong.body.result.isError).toBe(true);
    expect(wrong).toMatchObject({ code: -32602, name: 'InvalidParams' });
    expect(wrong.message).toBe('Invalid params: arguments.item.name: expected string');
    expect(wrong.data.errors.map((problem: { path: string }) => problem.path)).toStrictEqual([
      'arguments.item.name',
      'arguments.item.count',
    ]);
    expect(toolError(out.notObject)).toMatchObject({ code: -32602, message: 'Invalid params: arguments must be an object' });
    expect(out.huge.body.result.structuredContent).toEqual({ result: 2 });
    expect(out.hugeArguments.status).toBe(200);
    expect(out.hugeArguments.length).toBeLessThan(10_000);
  }, 70_000);

  it('tool names Object.prototype has are unknown tools, and __proto__ keys change nothing', async () => {
    const out = await runCase(`
const answers = [];
for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])
  answers.push(await post(call({ name, arguments: {} })));
answers.push(await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"Thing_put"},"arguments":{}}}'));
answers.push(await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Thing_put","arguments":{"__proto__":{"item":{"name":"a","count":1}}}}}'));
console.log(JSON.stringify({ answers, polluted: ({}).name !== undefined || ({}).item !== undefined }));
`);
    const [proto, ctor, toStringTool, hasOwn, valueOfTool, protoParams, protoArguments] = out.answers;
    for (const [answer, name] of [
      [proto, '__proto__'],
      [ctor, 'constructor'],
      [toStringTool, 'toString'],
      [hasOwn, 'hasOwnProperty'],
      [valueOfTool, 'valueOf'],
    ]) {
      expect(answer.body.error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    }
    expect(protoParams.body.error.code).toBe(-32602);
    expect(toolError(protoArguments).message).toContain('item');
    expect(out.polluted).toBe(false);
  }, 70_000);

  it('a batch of maxBatchSize + 1 under 2025-03-26 gets 400; one of notifications only gets 202', async () => {
    const out = await runCase(`
const ping = (id) => ({ jsonrpc: '2.0', id, method: 'ping' });
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
console.log(JSON.stringify({
  over: await post(JSON.stringify(Array.from({ length: 6 }, (_, i) => ping(i))), { 'mcp-protocol-version': '2025-03-26' }),
  notes: await post(JSON.stringify(Array.from({ length: 5 }, () => note)), { 'mcp-protocol-version': '2025-03-26' }),
  notesOver: await post(JSON.stringify(Array.from({ length: 10_000 }, () => note)), { 'mcp-protocol-version': '2025-03-26' }),
}));
`);
    expect(out.over.status).toBe(400);
    expect(out.over.body.error.message).toBe('Invalid Request: batch of 6 messages exceeds the limit of 5');
    expect(out.notes).toEqual({ status: 202, length: 0, body: null });
    expect(out.notesOver.status).toBe(400);
  }, 70_000);

  it('garbage and enormous cursors get -32602 unknown cursor', async () => {
    const out = await runCase(`
const list = (cursor) => post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor } }));
const answers = [];
for (const cursor of ['abc', '-1', '0x10', '1e3', '9'.repeat(900_000), 12, null, { a: 1 }, ['1'], '\\u0000', '99999999'])
  answers.push(await list(cursor));
console.log(JSON.stringify(answers));
`);
    for (const answer of out) {
      expect(answer.status).toBe(200);
      expect(answer.body.error).toEqual({ code: -32602, message: 'Invalid params: unknown cursor' });
    }
  }, 70_000);

  it('a huge or odd MCP-Protocol-Version gets a short 400 naming the supported revisions', async () => {
    const out = await runCase(`
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const answers = [];
for (const version of ['9'.repeat(500_000), '2025-11-25, 2025-06-18', '', ' 2025-11-25', '\\u0000\\u202e', 'constructor'])
  answers.push(await post(ping, { 'mcp-protocol-version': version }));
console.log(JSON.stringify(answers));
`);
    for (const answer of out) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(
        /^Bad Request: unsupported MCP-Protocol-Version .* \(supported: 2025-11-25, 2025-06-18, 2025-03-26\)$/,
      );
      expect(answer.length).toBeLessThan(400);
    }
  }, 70_000);

  it('a body over maxBodyBytes posted to the core gets 413, as on the JSON-RPC path', async () => {
    const out = await runCase(`
const big = call({ name: 'Thing_put', arguments: { item: { name: 'x'.repeat(2_000_000), count: 1 } } });
const answer = await server.handleHttp({ method: 'POST', path: '/mcp', contentType: 'application/json', headers: {}, body: big });
console.log(JSON.stringify({ status: answer.status }));
`);
    expect(out.status).toBe(413);
  }, 70_000);

  it('200,000 notifications one after another are answered 202 and leave nothing behind', async () => {
    const out = await runCase(`
const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'x'.repeat(1000) } });
const statuses = new Set();
for (let i = 0; i < 200_000; i++) statuses.add((await server.handleHttp({ method: 'POST', path: '/mcp', contentType: 'application/json', body: note })).status);
console.log(JSON.stringify({ statuses: [...statuses], heapMb: process.memoryUsage().heapUsed / 2 ** 20 }));
`);
    expect(out.statuses).toEqual([202]);
    expect(out.heapMb).toBeLessThan(200);
  }, 70_000);
});
