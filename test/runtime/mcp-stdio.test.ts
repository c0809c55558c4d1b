/**
 * MCP over stdio (docs/mcp.md, "stdio"): the SDK's `StdioClientTransport` starts a server script
 * (test/runtime/fixtures/mcp-stdio-server.mjs, on the built runtime) as desktop AI clients do,
 * lists its tools and calls one whose handler prints to stdout: the print goes to stderr and the
 * protocol on stdout stays intact.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/run-cli.js';

beforeAll(() => ensureBuilt(), 200_000);

describe('serveMcpStdio', () => {
  it("serves the tools to the SDK's stdio client, the handlers' prints on stderr", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL('fixtures/mcp-stdio-server.mjs', import.meta.url))],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toStrictEqual({ name: 'shop', version: '1.0.0' });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('CatalogService_sizeOf');
      const size = await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } });
      expect(size.structuredContent).toStrictEqual({ result: 'large' });
      await expect(client.ping()).resolves.toStrictEqual({});
    } finally {
      await client.close();
    }
    expect(stderr).toContain('sizeOf mug');
    expect(stderr).toContain('written to stdout by a handler');
  });
});
