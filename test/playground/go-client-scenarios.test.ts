/**
 * The checkout scenario list (test/clients/checkout-scenarios.json) run as a `go test` by the Go
 * client generated from the playground's IDL, against the playground server and against the jayson
 * server of the same service (jayson-checkout.ts); against the playground also a stream (watchOrder).
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcHttpServer } from 'unplugin-idl-rpc/runtime';
import { generateGoModule, goMissing, goPath, repositoryRoot, runGoTool } from '../clients/go-toolchain.js';
import { type CheckoutServiceModule, playgroundModules, type PlaygroundModules, type ServerStart } from './harness.js';
import { type JaysonCheckoutServer, startJaysonCheckout } from './jayson-checkout.js';

const missing = goMissing();
const scenarios = path.join(repositoryRoot, 'test/clients/checkout-scenarios.json');

let modules: PlaygroundModules | undefined;
let playground: RpcHttpServer | undefined;
let jayson: JaysonCheckoutServer | undefined;
let client: Awaited<ReturnType<typeof generateGoModule>> | undefined;

beforeAll(async () => {
  if (missing) return;
  client = await generateGoModule(path.join(repositoryRoot, 'playground/checkout.idl'), 'example.com/checkoutclient');
  await mkdir(path.join(client.dir, 'scenarios'));
  await copyFile(path.join(repositoryRoot, 'test/clients/go/scenarios_test.go'), path.join(client.dir, 'scenarios/scenarios_test.go'));
  modules = await playgroundModules();
  const start = await modules.load<ServerStart>('/server/start.ts');
  playground = await start.startCheckoutServer({ port: 0, host: '127.0.0.1', docsPage: false, mcp: false });
  const service = await modules.load<CheckoutServiceModule>('/service/checkout-service.ts');
  jayson = await startJaysonCheckout(service.createCheckoutService());
}, 120_000);

afterAll(async () => {
  await playground?.shutdown();
  await jayson?.close();
  await modules?.close();
  await client?.remove();
});

/** `go test` of the scenario list against a server; the test's log is in the failure message. */
async function runScenarios(url: string, streams: boolean): Promise<string> {
  const run = await runGoTool(goPath, ['test', '-count=1', '-timeout=240s', '-v', './scenarios/'], client!.dir, {
    SCENARIOS: scenarios,
    SERVER_URL: url,
    STREAMS: streams ? '1' : '0',
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain('passed: get the order');
  return run.stdout;
}

describe('the Go client runs the checkout scenario list', () => {
  it('against the playground server', async (context) => {
    if (missing) return context.skip(missing);
    const address = playground!.address() as { port: number };
    // The playground serves streams too: the Go client follows watchOrder.
    expect(await runScenarios(`http://127.0.0.1:${address.port}/`, true)).toContain('passed: watch an order');
  }, 300_000);

  it('against the jayson server of the checkout service', async (context) => {
    if (missing) return context.skip(missing);
    await runScenarios(jayson!.url, false);
  }, 300_000);
});
