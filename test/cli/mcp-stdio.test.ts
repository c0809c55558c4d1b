/**
 * `idlrpc -mcp-stdio <server module>` (docs/mcp.md, "idlrpc -mcp-stdio"), run as desktop AI clients
 * run it: the built bin spawned by the MCP SDK's `StdioClientTransport` and by the MCP Inspector's
 * CLI, serving test/cli/fixtures/mcp-server-module.mjs. What the module's top-level code and its
 * handlers print reaches stderr, never the protocol on stdout; a module that cannot be served exits
 * 1 with a message naming it and prints nothing on stdout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInspector } from '../node22.js';
import { BIN, REPO_ROOT, ensureBuilt, runCli } from './run-cli.js';

const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));
const MODULE = 'mcp-server-module.mjs';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'idlrpc-mcp-stdio-'));
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The SDK's client connected to `idlrpc -mcp-stdio` on the fixture module; stderr and transport errors collected. */
async function connect(): Promise<{ client: Client; stderr: () => string; errors: Error[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-mcp-stdio', MODULE],
    cwd: FIXTURES,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  // A line of stdout that is no JSON-RPC message reaches the client as an error here.
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors };
}

describe('idlrpc -mcp-stdio with the SDK client', () => {
  it('initializes, lists the exposed tools and calls them; a declared error is an isError result', async () => {
    const { client, errors } = await connect();
    try {
      expect(client.getServerVersion()).toStrictEqual({ name: 'shop', version: '1.0.0' });
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toStrictEqual([
        'CatalogService_listProducts',
        'CatalogService_getProduct',
        'CatalogService_sizeOf',
        'CatalogService_countUpTo',
        'OrderService_createOrder',
      ]);
      const product = await client.callTool({ name: 'CatalogService_getProduct', arguments: { id: 'mug' } });
      expect(product.structuredContent).toStrictEqual({ id: 'mug', name: 'Mug', price: 8 });
      const order = await client.callTool({ name: 'OrderService_createOrder', arguments: { cartId: 'c1' } });
      expect(order.structuredContent).toStrictEqual({ result: 'order-of-c1' });
      const empty = await client.callTool({ name: 'OrderService_createOrder', arguments: { cartId: 'empty' } });
      expect(empty.isError).toBe(true);
      expect(JSON.parse((empty.content as { text: string }[])[0].text)).toMatchObject({ code: 1001, name: 'CartEmpty' });
    } finally {
      await client.close();
    }
    expect(errors).toStrictEqual([]);
  });

  it("puts the module's and the handlers' prints on stderr, leaving the protocol on stdout intact", async () => {
    const { client, stderr, errors } = await connect();
    try {
      const size = await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } });
      expect(size.structuredContent).toStrictEqual({ result: 'large' });
      await expect(client.ping()).resolves.toStrictEqual({});
    } finally {
      await client.close();
    }
    expect(errors).toStrictEqual([]);
    expect(stderr()).toContain('module loaded (printed by its top-level code)');
    expect(stderr()).toContain('sizeOf mug');
    expect(stderr()).toContain('written to stdout by a handler');
  });
});

describe('idlrpc -mcp-stdio on its own', () => {
  it('writes only JSON-RPC lines on stdout and exits 0 when stdin ends', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'CatalogService_sizeOf', arguments: { id: 'mug' } } },
    ];
    const run = await runWithInput(
      [BIN, '-mcp-stdio', MODULE],
      messages.map((message) => JSON.stringify(message)),
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toStrictEqual([1, 2]);
    expect(run.stderr).toContain('written to stdout by a handler');
  });

  it('exits 1 with one line on stderr when the client closes its end of stdout', async () => {
    const child = spawn(process.execPath, [BIN, '-mcp-stdio', MODULE], { cwd: FIXTURES, timeout: 30_000 });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // stdin stays open: the failed write alone ends the process.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('idlrpc -mcp-stdio: cannot write to stdout (EPIPE); the client is gone\n');
    expect(stderr).not.toContain('Unhandled');
  });

  it('takes a function (maybe async) exported as the default, and serves the server it returns', async () => {
    const fixture = pathToFileURL(join(FIXTURES, MODULE)).href;
    writeFileSync(join(dir, 'factory.mjs'), `import { server } from '${fixture}';\nexport default async () => server;\n`);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const run = await runWithInput([BIN, '-mcp-stdio', 'factory.mjs'], [list], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).result.tools).toHaveLength(5);
  });

  it('refuses a missing file, a module exporting no server and a server without an MCP binding (exit 1, nothing on stdout)', async () => {
    const runtime = pathToFileURL(join(REPO_ROOT, 'dist/runtime/index.js')).href;
    const idl = JSON.stringify({ namespace: 'shop', interfaces: [], structs: [], enums: [], errors: [] });
    writeFileSync(join(dir, 'no-server.mjs'), "console.log('top-level print');\nexport const answer = 42;\n");
    writeFileSync(
      join(dir, 'no-binding.mjs'),
      `import { createRpcServer } from '${runtime}';\nexport default createRpcServer({ idl: ${idl}, handlers: {} });\n`,
    );
    writeFileSync(join(dir, 'throws.mjs'), "console.log('top-level print');\nthrow new Error('database unreachable');\n");
    writeFileSync(join(dir, 'not-a-server.mjs'), 'export const server = { name: "shop" };\n');
    const cases: [string, string][] = [
      ['missing.mjs', 'cannot load missing.mjs: no such file'],
      ['.', 'cannot load .: not a file'],
      ['no-server.mjs', 'no-server.mjs: exports no server; export the server as `server` or as the default export'],
      ['no-binding.mjs', 'no-binding.mjs: the server (export `default`) has no MCP binding; create it with the option mcp: mcpBinding('],
      ['throws.mjs', 'cannot load throws.mjs: Error: database unreachable\n    at file://'],
      ['not-a-server.mjs', 'not-a-server.mjs: the export `server` is no RpcServer (an object without handleHttp)'],
    ];
    for (const [module, message] of cases) {
      const run = await runCli(['-mcp-stdio', module], dir);
      expect({ module, code: run.code, stdout: run.stdout }).toStrictEqual({ module, code: 1, stdout: '' });
      expect(run.stderr).toContain(message);
    }
  });

  it('needs exactly one module (exit 2 with the usage line)', async () => {
    const run = await runCli(['-mcp-stdio'], dir);
    expect(run).toStrictEqual({
      code: 2,
      stdout: '',
      stderr: 'idlrpc: -mcp-stdio needs one server module (a .js, .mjs or .cjs file)\nusage: idlrpc -mcp-stdio <server-module.js>\n',
    });
  });

  it('is listed by -help', async () => {
    expect((await runCli(['-help'])).stdout).toContain('idlrpc -mcp-stdio <server-module.js>\n');
  });
});

describe('idlrpc -mcp-stdio with the MCP Inspector CLI', () => {
  /** The Inspector's CLI (on Node 22) spawning `idlrpc -mcp-stdio` on the fixture module; its JSON answer. */
  async function inspect(options: string[]): Promise<unknown> {
    // The Inspector wants its target's program before `--` (and before its options, some of which
    // take several values) and the program's arguments after `--`.
    const run = await runInspector([process.execPath, ...options, '--', BIN, '-mcp-stdio', join(FIXTURES, MODULE)]);
    if (run.status !== 0) throw new Error(`inspector failed (${run.status}):\n${run.stderr}`);
    return JSON.parse(run.stdout);
  }

  it('lists the tools and calls one', async () => {
    const listed = (await inspect(['--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('CatalogService_getProduct');
    const called = await inspect(['--method', 'tools/call', '--tool-name', 'CatalogService_getProduct', '--tool-arg', 'id=kettle']);
    expect(called).toMatchObject({ structuredContent: { id: 'kettle', name: 'Kettle', price: 30 } });
  }, 120_000);
});

/** Runs node with `args` in `cwd`, `lines` on its stdin. */
function runWithInput(args: string[], lines: string[], cwd = FIXTURES): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  });
}
