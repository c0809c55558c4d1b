/**
 * Hostile input against MCP over stdio (docs/mcp.md, "stdio"), in a child process with a small heap
 * (harness.ts): a line of 512 MB that never ends in time must not be held in memory. It is answered
 * with an error once its newline comes, and the next message is served.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, HEAP_MB, runHostileScript } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

describe('MCP over stdio', () => {
  it(`answers a 512 MB line with an error under a ${HEAP_MB} MB heap, then serves the next line`, async () => {
    const run = await runHostileScript(`
      const { Readable, Writable } = await import('node:stream');
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      const { mcpBinding, serveMcpStdio } = await import(DIST + 'runtime/mcp/index.js');
      const { compileIdl, toIdlJson } = await import(DIST + 'src/index.js');
      const idl = toIdlJson(compileIdl('namespace h\\ninterface Thing {\\n  ping() bool\\n}\\n', 'h.idl'));
      const server = createRpcServer({ idl, handlers: { Thing: { ping: () => true } }, mcp: mcpBinding({ expose: ['Thing'] }) });
      const block = Buffer.alloc(64 * 1024, 'x');
      async function* input() {
        for (let i = 0; i < 8192; i++) yield block;
        yield Buffer.from('\\n' + JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) + '\\n');
      }
      let written = '';
      const output = new Writable({ write(chunk, _encoding, done) { written += chunk; done(); } });
      await serveMcpStdio(server, { input: Readable.from(input()), output });
      console.log(JSON.stringify(written.trim().split('\\n').map((line) => JSON.parse(line))));
    `);
    expect(run.hung, 'hung').toBe(false);
    expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toStrictEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Payload Too Large: a message is at most 1048576 bytes (maxBodyBytes)' },
      },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
  });
});
