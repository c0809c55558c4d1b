/**
 * `openRpcDocument`: the OpenRPC document served on `GET openRpcPath` and answered by the reserved
 * method `rpc.discover` (docs/protocol.md, "rpc.discover"; docs/openrpc.md).
 */
import { describe, expect, it } from 'vitest';
import { createFetchHandler, createRpcServer, listen } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { post, serverHandle } from './helpers.js';

const document = { openrpc: '1.3.2', info: { title: 'Calc', version: '1.0.0' }, methods: [] };
const discover = { jsonrpc: '2.0', method: 'rpc.discover', id: 1 };

describe('openRpcDocument', () => {
  it('listen serves it on GET and HEAD /openrpc.json beside the OpenAPI document, and rpc.discover answers it', async () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, openRpcDocument: document, openApiDocument: { openapi: '3.1.0' } });
    const server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
    try {
      const got = await fetch(`${server.url}/openrpc.json?v=1`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/json');
      expect(await got.json()).toStrictEqual(document);
      const head = await fetch(`${server.url}/openrpc.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(await (await fetch(`${server.url}/openapi.json`)).json()).toStrictEqual({ openapi: '3.1.0' });
      expect((await post(server.url, discover)).json).toStrictEqual({ jsonrpc: '2.0', result: document, id: 1 });
    } finally {
      await server.close();
    }
  });

  it('rpc.discover answers in a batch, and a notification gets nothing', async () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, openRpcDocument: document });
    expect(await rpc.handleJson([discover, { jsonrpc: '2.0', method: 'Calc.ping', id: 2 }])).toStrictEqual([
      { jsonrpc: '2.0', result: document, id: 1 },
      { jsonrpc: '2.0', result: true, id: 2 },
    ]);
    expect(await rpc.handleJson({ jsonrpc: '2.0', method: 'rpc.discover' })).toBeUndefined();
  });

  it('rpcDiscover: false turns the method off (the document is still served); without a document it is not found', async () => {
    const off = createRpcServer({ idl: calcIdl, handlers: calcHandlers, openRpcDocument: document, rpcDiscover: false });
    const notFound = { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found: rpc.discover' }, id: 1 };
    expect(await off.handleJson(discover)).toStrictEqual(notFound);
    expect((await createFetchHandler(off)(new Request('http://x/openrpc.json'))).status).toBe(200);
    const none = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    expect(await none.handleJson(discover)).toStrictEqual(notFound);
    expect((await createFetchHandler(none)(new Request('http://x/openrpc.json'))).status).toBe(405);
  });

  it('is served at openRpcPath; a relative path or the OpenAPI document path is refused at start-up', async () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, openRpcDocument: document, openRpcPath: '/api/openrpc.json' });
    expect(await (await createFetchHandler(rpc)(new Request('http://x/api/openrpc.json'))).json()).toStrictEqual(document);
    expect((await createFetchHandler(rpc)(new Request('http://x/openrpc.json'))).status).toBe(405);
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, openRpcDocument: document, openRpcPath: 'doc.json' })).toThrow(
      "openRpcPath must start with '/'",
    );
    expect(() =>
      createRpcServer({
        idl: calcIdl,
        handlers: calcHandlers,
        openRpcDocument: document,
        openApiDocument: {},
        openRpcPath: '/doc.json',
        openApiPath: '/doc.json',
      }),
    ).toThrow('openApiPath and openRpcPath are both "/doc.json"');
  });
});
