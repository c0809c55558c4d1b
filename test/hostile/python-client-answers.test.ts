/**
 * A server that answers garbage gives the generated Python client's caller a clear RpcError
 * (TransportError or InvalidResultError, -32000), never a crash (a traceback of another exception)
 * or a hang. The client runs in Debian's python3 (its own process, with a memory limit and the
 * hang guard), against a Node server in this process answering each path with one kind of garbage.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePythonPackage, pythonMissing, pythonPath, run } from '../clients/python.js';
import { HANG_GUARD_MS } from './harness.js';

const playgroundIdl = fileURLToPath(new URL('../../playground/checkout.idl', import.meta.url));
const missing = pythonMissing();

const product = { productId: 'p', name: 'n', description: 'd', price: 1, stock: 1 };
const json = (body: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, ...(body as object) });

/** Path -> how the server answers it. */
const answers: Record<string, (response: import('node:http').ServerResponse) => void> = {
  '/not-json': (response) => response.end('<html>hello</html>'),
  '/empty': (response) => response.end(''),
  '/status-500': (response) => response.writeHead(500).end('upstream exploded'),
  '/not-an-object': (response) => response.end('[1, 2]'),
  '/no-result': (response) => response.end(json({})),
  '/bad-error': (response) => response.end(json({ error: 'boom' })),
  '/wrong-type': (response) => response.end(json({ result: { ...product, price: 'cheap' } })),
  '/missing-field': (response) => response.end(json({ result: { productId: 'p' } })),
  '/deep': (response) => response.end('['.repeat(200_000)),
  '/many-digits': (response) => response.end(`{"jsonrpc":"2.0","id":1,"result":${'9'.repeat(100_000)}}`),
  '/nan': (response) => response.end('{"jsonrpc":"2.0","id":1,"result":NaN}'),
  '/not-utf8': (response) => response.end(Buffer.from([0xff, 0xfe, 0x7b])),
  '/announced-huge': (response) => {
    response.writeHead(200, { 'content-length': String(10 * 1024 * 1024 * 1024) });
    response.write('{');
  },
  '/headers-then-nothing': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.flushHeaders();
  },
  '/drip': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 100);
    response.on('close', () => clearInterval(timer));
  },
  '/hang-up': (response) => response.socket?.destroy(),
  '/stream-garbage': (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end('data: {broken\n\n');
  },
};

const script = `
import sys
sys.setrecursionlimit(10_000)
sys.path.insert(0, sys.argv[1])
import checkout as co
for path in sys.argv[3:]:
    transport = co.Transport(sys.argv[2] + path, timeout=1.0, stream_timeout=1.0)
    try:
        if path.startswith("/stream"):
            list(co.OrderServiceClient(transport).watch_order("o"))
        else:
            co.CatalogServiceClient(transport).get_product("p")
        print(path, "no error")
    except co.RpcError as error:
        print(path, type(error).__name__, error.code, error.message[:120].replace("\\n", " "))
transport = co.Transport(sys.argv[2] + "/no-result", timeout=1.0)
with transport.batch() as batch:
    pending = batch.add(co.CatalogServiceClient(transport).get_product_call("p"))
try:
    pending.result()
except co.TransportError as error:
    print("batch", type(error).__name__, error.code, error.message)
`;

let server: Server;
let url: string;
let folder: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answers[request.url ?? '']?.(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (!missing) folder = await generatePythonPackage(playgroundIdl);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the generated Python client against a server answering garbage', () => {
  it('raises a TransportError or InvalidResultError (-32000) with a clear message for each, within its timeout', async (context) => {
    if (missing) return context.skip(missing);
    const paths = Object.keys(answers);
    // ulimit bounds the client's memory as the harness's heap limit bounds a Node case.
    const result = await run('/bin/sh', ['-c', 'ulimit -v 1048576; exec "$0" "$@"', pythonPath, '-c', script, folder, url, ...paths], {
      timeoutMs: HANG_GUARD_MS,
    });
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    const byPath = new Map(lines.map((line) => [line.split(' ')[0], line.slice(line.indexOf(' ') + 1)]));
    expect([...byPath.keys()]).toEqual([...paths, 'batch']);
    for (const line of byPath.values()) expect(line).toMatch(/^(TransportError|InvalidResultError) -32000 Transport error: /);
    expect(byPath.get('/wrong-type')).toBe(
      "InvalidResultError -32000 Transport error: invalid result of CatalogService.getProduct: result.price: expected a finite number, got the string 'ch",
    );
    expect(byPath.get('/missing-field')).toContain('result.name: missing required field');
    expect(byPath.get('/status-500')).toContain('HTTP 500');
    expect(byPath.get('/headers-then-nothing')).toContain('timed out');
    expect(byPath.get('/drip')).toContain('timed out');
    expect(byPath.get('batch')).toContain('the answer to a batch is not an array');
    expect(result.code).toBe(0);
  });
});
