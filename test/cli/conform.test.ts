/**
 * `idlrpc -conform`: passes against a server that keeps the checkout IDL, and fails with the right
 * rule against servers that each break one; exit 2 when it cannot check.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkoutHandlers, product, RpcError, staleCheckoutIdl, startCheckoutServer, type TestServer } from './conform-servers.js';
import { ensureBuilt, runCli } from './run-cli.js';

beforeAll(() => ensureBuilt(), 120_000);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const IDL = 'playground/checkout.idl';
const conform = (url: string, ...flags: string[]) =>
  runCli(['-conform', url, IDL, '-methods', 'CatalogService.getProduct', '-runs', '15', '-seed', '7', '-rate', '2000', ...flags]);

/** The rule ids of the report's violations, in order. */
const rules = (stdout: string) => [...stdout.matchAll(/^\d+\. \[([a-z-]+)\]/gm)].map((match) => match[1]);

describe('idlrpc -conform', () => {
  it('passes against a server that keeps the IDL, over JSON-RPC and REST, and says which methods ran and which were skipped', async () => {
    server = await startCheckoutServer();
    const run = await runCli(['-conform', server.url, IDL, '-rest', '-runs', '10', '-seed', '1', '-rate', '2000']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ran (4):\n  CatalogService.listProducts: ');
    expect(run.stdout).toContain('  CartService.addToCart: not @readonly (-all runs it)');
    expect(run.stdout).toContain('  OrderService.watchOrder: stream method: its event stream is not checked');
    expect(run.stdout).toMatch(/no violations in \d+ requests\n$/);
  });

  it('with -all runs the methods that change things too', async () => {
    server = await startCheckoutServer();
    const run = await runCli(['-conform', server.url, IDL, '-all', '-runs', '6', '-seed', '1', '-rate', '2000']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ran (7):');
    expect(run.stdout).toContain('  OrderService.createOrder: ');
  });

  const broken: [string, () => Promise<TestServer>, string[], string][] = [
    [
      'a wrong result type',
      () => startCheckoutServer({ validateResponses: false, handlers: checkoutHandlers(() => ({ ...product, price: '25.50' })) }),
      [],
      'result-type',
    ],
    [
      'a missing required field',
      () => startCheckoutServer({ validateResponses: false, handlers: checkoutHandlers(() => ({ ...product, name: undefined })) }),
      [],
      'missing-field',
    ],
    [
      'an undeclared error code',
      () =>
        startCheckoutServer({
          handlers: checkoutHandlers(() => {
            throw new RpcError(4040, 'ProductGone: no such product');
          }),
        }),
      [],
      'undeclared-error',
    ],
    [
      'a 500 instead of -32602 on invalid params',
      () =>
        startCheckoutServer({
          validateRequests: false,
          handlers: checkoutHandlers((id) => {
            if (typeof id !== 'string') throw new TypeError('productId.trim is not a function');
            return null;
          }),
        }),
      ['-rest'],
      'invalid-params-code',
    ],
    [
      'a wrong REST status',
      () => startCheckoutServer({}, (status, path) => (status === 400 && path !== '/' ? 422 : status)),
      ['-rest'],
      'rest-status',
    ],
    ['a stale rpc-idl', () => startCheckoutServer({ idl: staleCheckoutIdl() }), [], 'rpc-idl'],
  ];

  for (const [what, start, flags, rule] of broken) {
    it(`fails against a server with ${what}: one violation of [${rule}], with a curl command`, async () => {
      server = await start();
      const run = await conform(server.url, ...flags);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(rules(run.stdout)).toContain(rule);
      // Reported once per method and binding, however many requests broke it.
      const seen = rules(run.stdout).filter((r) => r === rule);
      expect(seen.length).toBeLessThanOrEqual(flags.includes('-rest') ? 2 : 1);
      expect(run.stdout).toMatch(
        new RegExp(`\\[${rule}\\][^\\n]*\\n   answer: [^\\n]*\\n   request[^:]*: curl -sS -i -X POST '${server.url}`),
      );
    });
  }

  it('shrinks what it reports: the smallest request that still breaks the rule', async () => {
    // Wrong only for ids of 6 characters or more: the first such request found is longer, shrinking cuts it to 6.
    const handlers = checkoutHandlers((id) => (String(id).length >= 6 ? { ...product, price: 'x' } : null));
    server = await startCheckoutServer({ validateResponses: false, handlers });
    const run = await runCli([
      '-conform',
      server.url,
      IDL,
      '-methods',
      'CatalogService.getProduct',
      '-runs',
      '40',
      '-seed',
      '7',
      '-rate',
      '2000',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/request \(shrunk in \d+ steps\): curl /);
    const params = /"method":"CatalogService\.getProduct","params":(\[[^\]]*\]|\{[^}]*\})/.exec(run.stdout)?.[1] ?? '';
    const id = Object.values(JSON.parse(params) as Record<string, string>)[0];
    expect([...id]).toHaveLength(6);
  });

  it('prints -header values as environment variables in the curl commands, never as given', async () => {
    server = await startCheckoutServer({ validateResponses: false, handlers: checkoutHandlers(() => ({ ...product, price: '1' })) });
    const run = await conform(server.url, '-header', 'Authorization: Bearer s3cret');
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('s3cret');
    expect(run.stdout).toContain('-H "Authorization: $IDLRPC_HEADER_1"');
  });

  it('an endless answer is read up to 16 MiB and reported, not kept in memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const write = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', write);
      write();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    server = {
      url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`,
      close: () =>
        new Promise((resolve) => {
          endless.close(() => resolve());
          endless.closeAllConnections();
        }),
    };
    const run = await runCli(['-conform', server.url, IDL, '-methods', 'CatalogService.getProduct', '-runs', '1', '-rate', '2000']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('[rpc-idl] rpc-idl (protocol): rpc-idl: the answer is larger than 16 MiB; the rest was not read');
    expect(rules(run.stdout)).toContain('answer-size');
  });

  it('exit 2 when the server cannot be reached', async () => {
    server = await startCheckoutServer();
    const { url } = server;
    await server.close();
    server = undefined;
    const run = await conform(url);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^idlrpc: cannot reach ${url}: ECONNREFUSED`));
    expect(run.stdout).toBe('');
  });

  it('bad input: a clear error and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['-conform', 'localhost:8080', IDL], /is not an http or https URL/],
      [['-conform', 'not a url', IDL], /'not a url' is not a URL/],
      [['-conform', 'http://127.0.0.1:1/', 'no-such.idl'], /cannot read no-such\.idl/],
      [['-conform', 'http://127.0.0.1:1/', IDL, '-runs', '0'], /-runs must be a whole number from 1/],
      [['-conform', 'http://127.0.0.1:1/', IDL, '-rate', 'fast'], /-rate must be a number above 0/],
      [['-conform', 'http://127.0.0.1:1/', IDL, '-header', 'no colon'], /-header must be "<Name>: <value>"/],
      [['-conform', 'http://127.0.0.1:1/', IDL, '-methods', 'CatalogService.nope'], /-methods names 'CatalogService.nope'/],
      [['-conform', 'http://127.0.0.1:1/'], /needs the server's JSON-RPC URL and one \.idl file/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });
});
