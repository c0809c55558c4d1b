/**
 * The TypeScript client generated from playground/checkout.idl runs the shared scenario list
 * (test/clients/checkout-scenarios.json), the one the Python and Go clients run: against the
 * playground's standalone server code, and against jayson serving the same checkout service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import scenarios from '../clients/checkout-scenarios.json' with { type: 'json' };
import { startJaysonCheckout } from './jayson-checkout.js';
import {
  type CheckoutIdl,
  type CheckoutServiceModule,
  playgroundModules,
  type PlaygroundModules,
  type RuntimeClient,
  type ServerStart,
} from './harness.js';

interface Expectation {
  result?: unknown;
  resultMatches?: unknown;
  resultCountAtLeast?: number;
  error?: { name: string; code: number };
  invalidParams?: boolean;
}
interface Call {
  method: string;
  params: unknown[];
  expect: Expectation;
}
interface Step extends Partial<Call> {
  name: string;
  save?: Record<string, string>;
  batch?: Call[];
}

let modules: PlaygroundModules;
let idl: CheckoutIdl;
let runtime: RuntimeClient;

beforeAll(async () => {
  modules = await playgroundModules();
  idl = await modules.load<CheckoutIdl>('/checkout.idl');
  runtime = await modules.load<RuntimeClient>('unplugin-idl-rpc/runtime/client');
});
afterAll(async () => {
  await modules?.close();
});

/** `"$name"` strings replaced by what an earlier step saved. */
function substitute(value: unknown, saved: Record<string, unknown>): unknown {
  if (typeof value === 'string' && value.startsWith('$')) return saved[value.slice(1)];
  if (Array.isArray(value)) return value.map((item) => substitute(item, saved));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, saved)]));
  }
  return value;
}

/** Every member of `expected` equal in `actual`, recursively; arrays element by element, same length. */
function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matches(actual[i], item));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([key, item]) => key in actual && matches((actual as Record<string, unknown>)[key], item));
  }
  return Object.is(actual, expected);
}

/** Why an outcome is not what the scenario expects, or undefined. */
function problem(outcome: { result?: unknown; error?: unknown }, expect: Expectation): string | undefined {
  const { error } = outcome;
  if (expect.error) {
    const declared = (idl as unknown as Record<string, new (...args: never[]) => Error>)[`${expect.error.name}Error`];
    if (!(error instanceof declared)) return `expected ${expect.error.name}Error, got ${String(error)}`;
    return (error as { code?: number }).code === expect.error.code ? undefined : `expected code ${expect.error.code}`;
  }
  if (expect.invalidParams) {
    return error instanceof runtime.RpcError && error.code === -32602 ? undefined : `expected -32602, got ${String(error)}`;
  }
  if (error !== undefined) return `threw ${String(error)}`;
  const result = JSON.parse(JSON.stringify(outcome.result ?? null));
  if ('result' in expect && !matches(result, expect.result))
    return `expected ${JSON.stringify(expect.result)}, got ${JSON.stringify(result)}`;
  if (expect.resultMatches !== undefined && !matches(result, expect.resultMatches)) return `got ${JSON.stringify(result)}`;
  if (expect.resultCountAtLeast !== undefined && !(Array.isArray(result) && result.length >= expect.resultCountAtLeast)) {
    return `expected at least ${expect.resultCountAtLeast} items`;
  }
  return undefined;
}

/** Runs every step with the generated clients over `transport`; returns one line per step, as the Python runner prints them. */
async function runScenarios(transport: InstanceType<RuntimeClient['BatchingTransport']>): Promise<string[]> {
  const clients: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {
    CatalogService: new idl.CatalogServiceClient(transport) as never,
    CartService: new idl.CartServiceClient(transport) as never,
    OrderService: new idl.OrderServiceClient(transport) as never,
  };
  const settle = async (call: Call) => {
    const [service, method] = call.method.split('.');
    try {
      return { result: await clients[service][method](...call.params) };
    } catch (error) {
      return { error };
    }
  };
  const saved: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const step of (scenarios as { steps: Step[] }).steps) {
    let problems: string[];
    if (step.batch) {
      const members = step.batch.map((member) => substitute(member, saved) as Call);
      const outcomes = await Promise.all(members.map(settle));
      problems = outcomes.flatMap((outcome, i) => {
        const found = problem(outcome, members[i].expect);
        return found ? [`[${i}] ${found}`] : [];
      });
    } else {
      const call = substitute(step, saved) as Call;
      const outcome = await settle(call);
      const found = problem(outcome, call.expect);
      problems = found ? [found] : [];
      for (const [key, field] of Object.entries(step.save ?? {})) saved[key] = (outcome.result as Record<string, unknown>)[field];
    }
    lines.push(problems.length > 0 ? `FAIL ${step.name}: ${problems.join('; ')}` : `ok ${step.name}`);
  }
  return lines;
}

/** A BatchingTransport that counts the requests it sends, so the batch step is seen to be one request. */
function countingTransport(url: string) {
  const requests: unknown[] = [];
  const transport = new runtime.BatchingTransport(url, {
    fetch: async (input, init) => {
      requests.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    },
  });
  return { transport, requests };
}

const expectedLines = (scenarios as { steps: Step[] }).steps.map((step) => `ok ${step.name}`);

describe('the generated TypeScript client runs the checkout scenarios', () => {
  it('against the playground server, the batch step in one request', async () => {
    const start = await modules.load<ServerStart>('/server/start.ts');
    const server = await start.startCheckoutServer({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = server.address() as { port: number };
      const { transport, requests } = countingTransport(`http://127.0.0.1:${port}/`);
      expect(await runScenarios(transport)).toEqual(expectedLines);
      expect(requests.at(-1)).toHaveLength(3);
    } finally {
      await server.shutdown();
    }
  });

  it('against jayson serving the checkout service', async () => {
    const service = await modules.load<CheckoutServiceModule>('/service/checkout-service.ts');
    const jayson = await startJaysonCheckout(service.createCheckoutService());
    try {
      const { transport, requests } = countingTransport(jayson.url);
      expect(await runScenarios(transport)).toEqual(expectedLines);
      expect(requests.at(-1)).toHaveLength(3);
    } finally {
      await jayson.close();
    }
  });
});
