/**
 * The Python client generated from playground/checkout.idl (`idlrpc -plugin py-client`) runs the
 * shared scenario list (test/clients/checkout-scenarios.json) with Debian's python3: against the
 * playground's standalone server code, and against jayson serving the same checkout service.
 */
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import { generatePythonPackage, pythonMissing, pythonPath, run, scenarioRunnerPath, scenariosPath } from '../clients/python.js';
import { startJaysonCheckout } from './jayson-checkout.js';
import { type CheckoutServiceModule, playgroundModules, playgroundRoot, type PlaygroundModules, type ServerStart } from './harness.js';

const missing = pythonMissing();
let modules: PlaygroundModules;
let folder: string;

beforeAll(async () => {
  if (missing) return;
  modules = await playgroundModules();
  folder = await generatePythonPackage(path.join(playgroundRoot, 'checkout.idl'));
  await copyFile(scenarioRunnerPath, path.join(folder, 'python_scenarios.py'));
});
afterAll(async () => {
  await modules?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The scenario names, in order, as the runner prints them when every step passes. */
async function expectedLines(): Promise<string[]> {
  const { steps } = (await import('../clients/checkout-scenarios.json', { with: { type: 'json' } })).default as {
    steps: { name: string }[];
  };
  return steps.map((step) => `ok ${step.name}`);
}

async function runScenarios(url: string, ...extra: string[]) {
  return run(pythonPath, [path.join(folder, 'python_scenarios.py'), folder, url, scenariosPath, ...extra]);
}

describe('the generated Python client runs the checkout scenarios', () => {
  it('against the playground server (and follows watchOrder to delivered)', async (context) => {
    if (missing) return context.skip(missing);
    const start = await modules.load<ServerStart>('/server/start.ts');
    const server = await start.startCheckoutServer({
      port: 0,
      host: '127.0.0.1',
      store: createMemoryStore({ fulfilment: { stepMs: 20 } }),
    });
    try {
      const { port } = server.address() as { port: number };
      const result = await runScenarios(`http://127.0.0.1:${port}/`, 'watch');
      expect(result.stderr).toBe('');
      const lines = result.stdout.trim().split('\n');
      expect(lines.slice(0, -1)).toEqual(await expectedLines());
      expect(lines.at(-1)).toMatch(/^ok watch .*delivered$/);
      expect(result.code).toBe(0);
    } finally {
      await server.shutdown();
    }
  });

  it('against jayson serving the checkout service', async (context) => {
    if (missing) return context.skip(missing);
    const service = await modules.load<CheckoutServiceModule>('/service/checkout-service.ts');
    const jayson = await startJaysonCheckout(service.createCheckoutService());
    try {
      const result = await runScenarios(jayson.url);
      expect(result.stderr).toBe('');
      expect(result.stdout.trim().split('\n')).toEqual(await expectedLines());
      expect(result.code).toBe(0);
    } finally {
      await jayson.close();
    }
  });
});
