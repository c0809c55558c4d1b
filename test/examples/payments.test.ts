/**
 * examples/payments: every construct of the contract language end to end, run as its README says.
 * `node build.mjs` bundles the server and the client with esbuild and the plugin; `tsc -p .` checks
 * the TypeScript against payments.idl.d.ts; the client's output against the running server is the
 * README's, word for word. The OpenAPI document beside the bundles says the same contract (formats,
 * union with discriminator, constraints, defaults, optional parameters, deprecation), and the wire
 * refuses what the IDL refuses, with every problem's path, before any handler runs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { BIN, ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { copyExample, postJson, type RunningServer, run, startServer, TSC } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let example: string;
let server: RunningServer | undefined;

beforeAll(async () => {
  ensureBuilt();
  example = await copyExample('payments');
  const build = await run(process.execPath, ['build.mjs'], example);
  expect(build.code, build.output).toBe(0);
  server = await startServer('dist/server.mjs', example);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

/** A fenced block of the README that follows `after`. */
async function readmeBlock(after: string): Promise<string> {
  const readme = await readFile(path.join(REPO_ROOT, 'examples/payments/README.md'), 'utf8');
  const start = readme.indexOf(after);
  const block = /```text\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start === -1 || !block) throw new Error(`the README has no text block after "${after}"`);
  return block[1];
}

test('the client prints what the README says, against the running server', async () => {
  const client = await run(process.execPath, ['dist/client.mjs', server!.baseUrl], example);
  expect(client.code, client.output).toBe(0);
  expect(client.output).toBe(await readmeBlock('The client prints:'));
});

test('the TypeScript type-checks against the payments.idl.d.ts the build wrote', async () => {
  const checked = await run(TSC, ['-p', '.'], example);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
});

test('openapi.json says the same contract', async () => {
  const document = JSON.parse(await readFile(path.join(example, 'dist/openapi.json'), 'utf8'));
  const schemas = document.components.schemas;
  expect(schemas.Payment.allOf ?? schemas.Payment.properties).toBeDefined();
  const text = JSON.stringify(document);
  expect(text).toContain('"format":"date-time"');
  expect(text).toContain('"format":"date"');
  expect(text).toContain('"contentEncoding":"base64"');
  expect(schemas.PaymentMethod.discriminator).toMatchObject({ propertyName: 'type' });
  expect(schemas.PaymentMethod.oneOf).toHaveLength(2);
  expect(schemas.Money.properties.amount).toMatchObject({ minimum: 1, maximum: 1000000 });
  expect(schemas.Card.properties.last4).toMatchObject({ pattern: '^[0-9]{4}$' });
  expect(schemas.NewPayment.properties.email).toMatchObject({ format: 'email' });
  expect(schemas.NewPayment.properties.tags).toMatchObject({ default: [], maxItems: 10, items: { minLength: 1, maxLength: 32 } });
  expect(text).toContain('"deprecated":true');
});

test('the wire refuses what the IDL refuses, listing every problem with its path', async () => {
  const answer = await postJson(`${server!.baseUrl}/`, {
    jsonrpc: '2.0',
    id: 1,
    method: 'PaymentService.create',
    params: [
      {
        amount: { amount: 5, currency: 'EUR' },
        method: { type: 'cheque', number: '1' },
        dueOn: '2026-02-30',
        email: 'a@example.com',
        tags: ['x'.repeat(33)],
      },
    ],
  });
  const error = (answer.body as { error: { code: number; data: { errors: { path: string }[] } } }).error;
  expect(error.code).toBe(-32602);
  expect(error.data.errors.map((problem) => problem.path)).toEqual(['params[0].method.type', 'params[0].dueOn', 'params[0].tags[0]']);
  const list = await postJson(`${server!.baseUrl}/`, { jsonrpc: '2.0', id: 2, method: 'PaymentService.list', params: [null, 101] });
  expect((list.body as { error: { code: number } }).error.code).toBe(-32602);
});

test('idlrpc -validate -portable names the constructs the family does not read, and exits 0', async () => {
  const validated = await run(process.execPath, [BIN, '-validate', '-portable', 'payments.idl'], example);
  expect(validated.code, validated.output).toBe(0);
  for (const construct of ['timestamp', 'union', 'optional parameter']) expect(validated.output).toContain(construct);
});
