/**
 * Version skew made visible: generated clients send their interface's contract fingerprint in the
 * `x-idlrpc-contract` header; a server with `contractMismatch` logs, counts or refuses the calls of
 * clients generated from another version. The fingerprint keeps parameter order (the family's
 * checksum does not), ignores what the interface does not reach, and is the same for an interface
 * compiled alone or imported.
 */
import { describe, expect, test, vi } from 'vitest';
import {
  BatchingTransport,
  callMethod,
  CONTRACT_HEADER,
  type ContractMismatch,
  createFetchHandler,
  createRpcServer,
  ErrorCode,
  HttpTransport,
  interfaceFingerprints,
  RpcError,
  type RpcServerOptions,
} from '../../runtime/index.js';
import { fnv1a64, legacyInterfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import { compileIdl, generateModule, toIdlJson } from '../../src/index.js';
import { memoryHost } from '../idl/memory-host.js';

const V1 = 'namespace shop\n\ninterface Shop {\n    put(sku string, count int) int\n}\n\ninterface Other {\n    ping() bool\n}\n';
const V2 = V1.replace('put(sku string, count int)', 'put(count int, sku string)');

const json = (text: string) => toIdlJson(compileIdl(text, 'shop.idl'));
const fingerprint = (text: string, iface = 'Shop') => interfaceFingerprints(json(text)).get(iface)!;
/** What clients generated before fingerprint version 2 send. */
const legacyFingerprint = (text: string, iface = 'Shop') => legacyInterfaceFingerprints(json(text)).get(iface)!;

/** A server of V2 reached through a fetch handler (no network), and a client sending `contract`. */
function setUp(options: Partial<RpcServerOptions>) {
  const server = createRpcServer({
    idl: json(V2),
    handlers: { Shop: { put: (count: number, sku: string) => `${sku}`.length + count }, Other: { ping: () => true } },
    ...options,
  });
  const handle = createFetchHandler(server);
  const transport = new HttpTransport('http://shop.test/rpc', { fetch: (url, init) => handle(new Request(url, init)) });
  const call = (contract: string | undefined, params: unknown[] = [2, 'abc']) =>
    callMethod(transport, 'Shop.put', params, [], undefined, contract);
  return { handle, call };
}

describe('the contract fingerprint', () => {
  test('FNV-1a 64 of the canonical text (known values)', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
  });

  test('sees swapped parameters, which the checksum does not', () => {
    expect(json(V1).checksum).toBe(json(V2).checksum);
    expect(fingerprint(V1)).not.toBe(fingerprint(V2));
    expect(fingerprint(V1)).toMatch(/^2\.[0-9a-f]{16}$/);
    expect(legacyFingerprint(V1)).not.toBe(legacyFingerprint(V2));
  });

  test('ignores order and comments, and interfaces it does not reach; sees types it reaches', () => {
    const reordered =
      '// doc\nnamespace shop\n\ninterface Other {\n    ping() int\n}\n\n// the shop\ninterface Shop {\n    put(sku string, count int) int\n}\n';
    expect(fingerprint(reordered)).toBe(fingerprint(V1));
    expect(fingerprint(reordered, 'Other')).not.toBe(fingerprint(V1, 'Other'));
    const withStruct = (fields: string) => `namespace shop\nstruct Item {\n${fields}\n}\ninterface Shop {\n    get() []Item\n}\n`;
    expect(fingerprint(withStruct('    a int\n    b int'))).toBe(fingerprint(withStruct('    b int\n    a int')));
    expect(fingerprint(withStruct('    a int'))).not.toBe(fingerprint(withStruct('    a int [optional]')));
  });

  test('is the same for an interface compiled alone and imported by another file', () => {
    const inventory =
      'namespace inventory\nstruct Item {\n    sku string\n}\nerrors {\n    7 Gone "gone"\n}\ninterface Stock {\n    get(sku string) Item raises(Gone)\n}\n';
    const orders = 'namespace orders\nimport "inventory.idl"\ninterface Orders {\n    place(item inventory.Item) bool\n}\n';
    const alone = interfaceFingerprints(toIdlJson(compileIdl(inventory, 'inventory.idl'))).get('Stock');
    const imported = interfaceFingerprints(
      toIdlJson(compileIdl(orders, 'orders.idl', { host: memoryHost({ 'inventory.idl': inventory }) })),
    );
    expect(imported.get('inventory.Stock')).toBe(alone);
  });

  test('generated clients carry it and send it with every call', async () => {
    const { js } = generateModule(compileIdl(V1, 'shop.idl'), { runtimeImport: 'rt', runtimeClientImport: 'rt', sourceFile: 'shop.idl' });
    expect(js).toContain(`static contract = '${fingerprint(V1)}';`);
    expect(js).toContain("callMethodWithoutRaises(this.#transport, 'Shop.put', [sku, count], options, ShopClient.contract)");
    const seen: (string | null)[] = [];
    const transport = new HttpTransport('http://x.test/', {
      fetch: async (_url, init) => {
        seen.push(new Headers(init?.headers).get(CONTRACT_HEADER));
        return new Response('{"jsonrpc":"2.0","result":1,"id":1}');
      },
    });
    await callMethod(transport, 'Shop.put', ['a', 1], [], { headers: { 'x-other': '1' } }, fingerprint(V1));
    expect(seen).toEqual([fingerprint(V1)]);
  });
});

describe('contractMismatch on the server', () => {
  test('off by default: an old client is served', async () => {
    expect(await setUp({}).call(fingerprint(V1))).toBe(5);
  });

  test("'reject': the old client gets -32001 naming both versions; the current one, and one without the header, are served", async () => {
    const { call, handle } = setUp({ contractMismatch: 'reject' });
    const refusal = await call(fingerprint(V1), ['abc', 2]).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RpcError);
    expect(refusal).toMatchObject({
      code: ErrorCode.ContractMismatch,
      message: expect.stringMatching(
        /^Contract mismatch: the client was generated from another version of Shop \(2\.[0-9a-f]{16}; this server has 2\.[0-9a-f]{16}\); update the client$/,
      ),
      data: { clientContract: fingerprint(V1), serverContract: fingerprint(V2) },
    });
    expect(await call(fingerprint(V2))).toBe(5);
    expect(await call(undefined)).toBe(5);
    // A fingerprint of another algorithm version cannot be compared: served.
    expect(await call('3.0000')).toBe(5);
    // The REST binding answers 409.
    const rest = await handle(
      new Request('http://shop.test/rpc/Shop/put', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CONTRACT_HEADER]: fingerprint(V1) },
        body: '{"count": 1, "sku": "a"}',
      }),
    );
    expect(rest.status).toBe(409);
  });

  test("'reject' across the upgrade to fingerprint version 2: clients generated before it are compared by their version", async () => {
    const { call } = setUp({ contractMismatch: 'reject' });
    // A stale client of version 1 is still refused, naming the server's version-1 fingerprint.
    await expect(call(legacyFingerprint(V1), ['abc', 2])).rejects.toMatchObject({
      code: ErrorCode.ContractMismatch,
      data: { clientContract: legacyFingerprint(V1), serverContract: legacyFingerprint(V2) },
    });
    // A current client of version 1 is served, as is a header listing both versions' fingerprints.
    expect(await call(legacyFingerprint(V2))).toBe(5);
    expect(await call(`${legacyFingerprint(V2)}, ${fingerprint(V2)}`)).toBe(5);
    expect(legacyFingerprint(V2)).toMatch(/^1\.[0-9a-f]{16}$/);
  });

  test("'log': the first call of each client version is logged, every call is served", async () => {
    const warn = vi.fn();
    const { call } = setUp({ contractMismatch: 'log', logger: { error: vi.fn(), warn } });
    expect(await call(fingerprint(V1))).toBe(5);
    expect(await call(fingerprint(V1))).toBe(5);
    expect(await call(fingerprint(V2))).toBe(5);
    expect(warn.mock.calls).toEqual([
      [
        `Shop.put: called by a client of contract ${fingerprint(V1)}, this server has ${fingerprint(V2)} (further calls of that client version are not logged)`,
      ],
    ]);
  });

  test('a function counts every mismatch and may refuse', async () => {
    const seen: ContractMismatch[] = [];
    const { call } = setUp({ contractMismatch: (mismatch) => void seen.push(mismatch) });
    await call(fingerprint(V1));
    await call(fingerprint(V1));
    await call(fingerprint(V2));
    expect(seen).toEqual([
      { method: 'Shop.put', clientContract: fingerprint(V1), serverContract: fingerprint(V2) },
      { method: 'Shop.put', clientContract: fingerprint(V1), serverContract: fingerprint(V2) },
    ]);
    const refusing = setUp({ contractMismatch: () => 'reject' });
    await expect(refusing.call(fingerprint(V1))).rejects.toMatchObject({ code: -32001 });
  });

  test('a policy that is none of these is refused at start-up', () => {
    expect(() => createRpcServer({ idl: json(V2), handlers: {}, contractMismatch: 'warn' as 'log' })).toThrow(
      "contractMismatch must be 'log', 'reject' or a function, got \"warn\"",
    );
  });
});

describe('batches to several interfaces', () => {
  test("go as one request listing each interface's fingerprint; a rejecting server accepts them and refuses a stale one", async () => {
    const server = createRpcServer({
      idl: json(V2),
      handlers: { Shop: { put: (count: number, sku: string) => sku.length + count }, Other: { ping: () => true } },
      contractMismatch: 'reject',
    });
    const handle = createFetchHandler(server);
    const sent: (string | null)[] = [];
    const transport = new BatchingTransport('http://shop.test/rpc', {
      fetch: (url, init) => {
        const request = new Request(url, init);
        sent.push(request.headers.get(CONTRACT_HEADER));
        return handle(request);
      },
    });
    const shop = fingerprint(V2);
    const other = fingerprint(V2, 'Other');
    const [put, ping] = await Promise.all([
      callMethod(transport, 'Shop.put', [2, 'abc'], [], undefined, shop),
      callMethod(transport, 'Other.ping', [], [], undefined, other),
    ]);
    expect([put, ping]).toEqual([5, true]);
    expect(sent).toEqual([`${shop}, ${other}`]);

    const stale = await Promise.allSettled([
      callMethod(transport, 'Shop.put', [2, 'abc'], [], undefined, fingerprint(V1)),
      callMethod(transport, 'Other.ping', [], [], undefined, other),
    ]);
    expect(sent).toHaveLength(2);
    expect(stale[0]).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.ContractMismatch } });
    expect(stale[1]).toEqual({ status: 'fulfilled', value: true });
  });
});
