/**
 * `idlrpc -conform -all` against the playground's standalone server (its limits raised for the run),
 * which keeps its IDL, and against the jayson server of the same service, whose protocol handling
 * differs from docs/protocol.md in ways the report must name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { type CheckoutServiceModule, playgroundEnv, playgroundModules } from './harness.js';
import { startJaysonCheckout } from './jayson-checkout.js';
import { buildServer, type ServerProcess, startServer } from './server-process.js';

const IDL = 'playground/checkout.idl';
const rules = (stdout: string) => [...stdout.matchAll(/^\d+\. \[([a-z-]+)\] (\S+)/gm)].map((match) => `${match[1]} ${match[2]}`);

describe('idlrpc -conform -all', () => {
  let built: Awaited<ReturnType<typeof buildServer>>;
  let server: ServerProcess;
  beforeAll(async () => {
    ensureBuilt();
    built = await buildServer();
    // One client makes every cart of the run: the per-client budget of new carts is raised for it.
    server = await startServer(built.mainJs, {
      ...playgroundEnv(),
      PLAYGROUND_MAX_NEW_CARTS_PER_CLIENT: '100000',
      PLAYGROUND_MAX_CARTS: '100000',
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await built?.remove();
  });

  it('passes against the playground server, over JSON-RPC and REST', async () => {
    const run = await runCli(['-conform', server.url, IDL, '-all', '-rest', '-runs', '20', '-seed', '3', '-rate', '1000']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('ran (7):');
    expect(run.stdout).toContain('  OrderService.watchOrder: stream method');
    expect(run.code, run.stdout).toBe(0);
  });

  it('reports what the jayson server of the same service does differently from docs/protocol.md', async () => {
    const modules = await playgroundModules();
    const service = await modules.load<CheckoutServiceModule>('/service/checkout-service.ts');
    const jayson = await startJaysonCheckout(service.createCheckoutService());
    try {
      const run = await runCli(['-conform', jayson.url, IDL, '-all', '-runs', '6', '-seed', '3', '-rate', '1000']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const found = rules(run.stdout);
      // Broken JSON: HTTP 400 and plain text instead of -32700.
      expect(found).toContain('parse-error protocol');
      expect(run.stdout).toMatch(/\[parse-error\] protocol \(protocol\): expected HTTP 200 and a JSON-RPC error -32700[^\n]*got HTTP 400/);
      // "id": null taken for a notification.
      expect(found).toContain('id-null protocol');
      // No rpc-idl method, and no validation of params: invalid requests reach the handlers.
      expect(found).toContain('rpc-idl rpc-idl');
      expect(found.some((rule) => rule.startsWith('invalid-params-'))).toBe(true);
    } finally {
      await jayson.close();
      await modules.close();
    }
  });
}, 300_000);
