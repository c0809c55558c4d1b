/**
 * Hostile queries against reads over GET (docs/protocol.md, "Reads over GET"), each case in its own
 * child process (harness.ts): a query of megabytes, a hundred thousand parameters, JSON nested a
 * million deep, malformed percent-encoding by the megabyte, and a URL past Node's header limit.
 * Every one gets a clear answer (414, or 400 with the parameter's JSON path) and the server goes on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript, type ChildRun } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

/** Runs `body` after a fetch handler `handle` (base `/`) of a server whose `Thing.find(text)` is @readonly; prints what `body` returns. */
async function runCase(body: string): Promise<any> {
  const run: ChildRun = await runHostileScript(`
const { createRpcServer, createFetchHandler, listen } = await import(DIST + 'runtime/index.js');
const idl = {
  rootNamespace: 'h', checksum: 'h', structs: [], enums: [],
  interfaces: [{ name: 'Thing', namespace: 'h', methods: [
    { name: 'find', readonly: true, parameters: [{ name: 'text', type: { builtIn: 'string' } }], returnType: { builtIn: 'int' } },
  ] }],
};
const server = createRpcServer({ idl, handlers: { Thing: { find: (text) => text.length } } });
const handle = createFetchHandler(server);
const get = async (query) => {
  const response = await handle(new Request('http://h.test/Thing/find?' + query));
  const text = await response.text();
  return { status: response.status, body: text.length > 100000 ? text.slice(0, 100000) : text };
};
const result = await (async () => { ${body} })();
console.log(JSON.stringify(result));
process.exit(0);
`);
  expect(run.hung, 'hung').toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

describe('reads over GET under hostile queries', () => {
  it('answers a query of 32 MB with 414, before reading it', async () => {
    const answer = await runCase(`return get('text=' + 'a'.repeat(32 * 1024 * 1024));`);
    expect(answer).toStrictEqual({ status: 414, body: '{"error":"URI Too Long","message":"the query is longer than 1048576 characters"}' });
  }, 90_000);

  it('answers a hundred thousand unknown parameters with 400 and at most 100 problems', async () => {
    const answer = await runCase(`
const query = Array.from({ length: 100000 }, (_, i) => 'p' + i + '=1').join('&');
const { status, body } = await get('text=%22x%22&' + query);
const parsed = JSON.parse(body);
return { status, code: parsed.code, message: parsed.message, problems: parsed.data.errors.length };`);
    expect(answer).toStrictEqual({
      status: 400,
      code: -32602,
      message: "Invalid params: params.p0: unknown parameter 'p0'",
      problems: 100,
    });
  }, 90_000);

  it('answers JSON nested half a million deep with a parse error naming the parameter', async () => {
    const answer = await runCase(`return get('text=' + '['.repeat(500000) + ']'.repeat(500000));`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toStrictEqual({
      code: -32700,
      message: 'Parse error: params.text: JSON nested deeper than 127 levels',
    });
  }, 90_000);

  it('answers a megabyte of malformed percent-encoding, and the same parameter twice, with 400', async () => {
    const answer = await runCase(`
return [await get('text=' + '%E0%A4'.repeat(170000)), await get('text=%22a%22&'.repeat(80000))];`);
    expect(answer[0].status).toBe(400);
    expect(JSON.parse(answer[0].body)).toStrictEqual({
      code: -32700,
      message: 'Parse error: params.text: the value is not valid percent-encoded UTF-8',
    });
    expect(answer[1].status).toBe(400);
    expect(JSON.parse(answer[1].body)).toStrictEqual({ code: -32600, message: 'Invalid Request: params.text is given twice in the query' });
  }, 90_000);

  it('leaves a URL past the header limit to Node (431) over listen, and goes on answering', async () => {
    const answer = await runCase(`
const http = await listen(server, { port: 0, host: '127.0.0.1' });
const base = 'http://127.0.0.1:' + http.address().port;
const huge = await fetch(base + '/Thing/find?text=' + '%22' + 'a'.repeat(100000) + '%22').catch((error) => ({ status: 'failed' }));
const after = await fetch(base + '/Thing/find?text=%22abc%22');
const result = { huge: huge.status, after: after.status, body: await after.text() };
http.close();
http.closeAllConnections();
return result;`);
    expect(answer).toStrictEqual({ huge: 431, after: 200, body: '3' });
  }, 90_000);
});
