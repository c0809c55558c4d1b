/**
 * The generated code of stream methods (docs/idl.md, "Streams"): the client method returns an
 * `RpcStream` of the items and calls the runtime's `streamMethod`; the handler returns a
 * `StreamHandlerResult` of the items and always gets its context; the plugin's JavaScript and
 * `.d.ts` say the same. A plain method next to a stream one is generated as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateModule, generateTypeScriptFiles } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';

/** Stream methods beside a plain one (its comment carried into the TSDoc). */
const IDL = readFileSync(path.join(import.meta.dirname, 'fixtures', 'streams.idl'), 'utf8');

const model = () => compileIdl(IDL, 'shop.idl');
const files = () => generateTypeScriptFiles(model(), { sourceFile: 'shop.idl', runtimeImport: 'unplugin-idl-rpc/runtime' });

describe('the generated client of stream methods', () => {
  test('a stream method returns RpcStream<Item, declared errors> and calls streamMethod with the item conversion', () => {
    const client = files().get('client.ts')!;
    expect(client).toContain(
      "import { type CallOptions, type RpcPromise, type RpcStream, type StreamOptions, type Transport, streamMethod } from 'unplugin-idl-rpc/runtime/client';",
    );
    expect(client).toContain(
      '  watchOrder(orderId: string, options?: StreamOptions): RpcStream<Order, { OrderNotFound: OrderNotFoundError }> {\n' +
        "    return streamMethod(this.#transport, 'OrderService.watchOrder', [orderId], [OrderNotFoundError], options, OrderServiceClient.contract, " +
        '{"p":[0],"r":["s","Order"],"s":{"Order":[["at","t"]]}}) as RpcStream<Order, { OrderNotFound: OrderNotFoundError }>;\n',
    );
    expect(client).toContain('   * The order as it changes.\n   *\n   * Streams the items as the server sends them');
    expect(client).toContain('   * @throws {@link OrderNotFoundError} (code 1001) no such order\n');
  });

  test('a stream method without declared errors or conversion leaves both out; trailing optional parameters are trimmed', () => {
    const client = files().get('client.ts')!;
    expect(client).toContain('  ticks(every?: number, options?: StreamOptions): RpcStream<number> {\n');
    expect(client).toContain(
      "return streamMethod(this.#transport, 'OrderService.ticks', params, [], options, OrderServiceClient.contract) as RpcStream<number>;",
    );
  });

  test('a plain method beside it still returns an RpcPromise through callConvertingMethod', () => {
    expect(files().get('client.ts')).toContain(
      '  getOrder(orderId: string, options?: CallOptions): RpcPromise<Order, { OrderNotFound: OrderNotFoundError }> {\n',
    );
  });
});

describe('the generated server types of stream methods', () => {
  test('the handler returns StreamHandlerResult<Item> and gets its context', () => {
    const server = files().get('server.ts')!;
    expect(server).toMatch(/import \{[^}]*type StreamHandlerResult[^}]*\} from 'unplugin-idl-rpc\/runtime\/core';/);
    expect(server).toContain('  watchOrder(orderId: string, ctx: RpcContext): StreamHandlerResult<Order>;\n');
    expect(server).toContain('  ticks(every: number | undefined, ctx: RpcContext): StreamHandlerResult<number>;\n');
    expect(server).toContain('  getOrder(orderId: string, ctx?: RpcContext): Order | Promise<Order>;\n');
  });

  test('the served JSON form marks the method as a stream', () => {
    expect(files().get('idl.json')).toContain('"stream": true');
  });
});

describe('the plugin module of stream methods', () => {
  test('the JavaScript calls streamMethod; the .d.ts types the method as a stream', () => {
    const module = generateModule(model(), {
      sourceFile: 'shop.idl',
      runtimeImport: 'unplugin-idl-rpc/runtime',
      runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    });
    expect(module.js).toContain(
      "return streamMethod(this.#transport, 'OrderService.watchOrder', [orderId], [OrderNotFoundError], options,",
    );
    expect(module.js).toMatch(/import \{[^}]*streamMethod[^}]*\} from 'unplugin-idl-rpc\/runtime\/client';/);
    expect(module.dts).toContain(
      'watchOrder(orderId: string, options?: StreamOptions): RpcStream<Order, { OrderNotFound: OrderNotFoundError }>;',
    );
    expect(module.dts).toContain('watchOrder(orderId: string, ctx: RpcContext): StreamHandlerResult<Order>;');
  });
});
