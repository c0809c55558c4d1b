/**
 * Discriminated unions end to end: code generated from an IDL with a union as a parameter, a
 * return and a field (optional, in an array, in a map), its server listening on 127.0.0.1 and its
 * generated client calling it over HTTP. A variant's timestamp and bytes are converted on both
 * sides and the discriminator is written on results; a missing or unknown discriminator or a bad
 * field of a variant gets -32602 with the path of every problem, and the handler never runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../runtime/client.js';
import { createRpcServer, listen } from '../../runtime/index.js';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { post, serverHandle, type TestServer } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const IDL = readFileSync(path.join(repoRoot, 'test/runtime/fixtures/unions.idl'), 'utf8');

type Card = { number: string; expires: Date };
type Transfer = { iban: string; memo?: Uint8Array | null };
type Payment = ({ kind: 'card' } & Card) | ({ kind: 'bank_transfer' } & Transfer);
type Order = {
  id: string;
  payment: Payment;
  backup?: Payment | null;
  history: Payment[];
  byName: Record<string, Payment>;
  single?: ({ type: 'only' } & Card) | null;
};

let server: TestServer;
let client: { pay(payment: Payment): Promise<Payment>; place(order: Order): Promise<Order> };
const received: unknown[] = [];

beforeAll(async () => {
  const { js } = generateModule(compileIdl(IDL, 'unions.idl'), {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: 'unions.idl',
  });
  const dir = path.join(repoRoot, 'test-output/runtime/unions');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `pay-${process.pid}.mjs`);
  writeFileSync(out, js);
  const generated: any = await import(pathToFileURL(out).href);
  const rpc = generated.createPayServer({
    Checkout: {
      pay(payment: Payment) {
        received.push(payment);
        return payment;
      },
      place(order: Order) {
        received.push(order);
        return order;
      },
    },
  });
  server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
  client = new generated.CheckoutClient(new HttpTransport(`${server.url}/rpc`));
});

afterAll(async () => {
  await server?.close();
});

const card: Payment = { kind: 'card', number: '4242', expires: new Date('2027-01-31T00:00:00.000Z') };
const transfer: Payment = { kind: 'bank_transfer', iban: 'DE89', memo: new Uint8Array([1, 2, 255]) };

describe('discriminated unions over HTTP', () => {
  it('round-trips a union parameter and result, the variant timestamp a Date on both sides', async () => {
    received.length = 0;
    const result = await client.pay(card);
    expect(result).toEqual(card);
    expect((result as Card).expires).toBeInstanceOf(Date);
    expect((received[0] as Card).expires).toBeInstanceOf(Date);
    expect(await client.pay(transfer)).toEqual(transfer);
    expect((received[1] as Transfer).memo).toBeInstanceOf(Uint8Array);
  });

  it('round-trips unions in optional fields, arrays and maps', async () => {
    const order: Order = { id: 'o1', payment: transfer, backup: card, history: [card, transfer], byName: { a: card }, single: null };
    const result = await client.place(order);
    expect(result).toEqual(order);
    expect((result.history[0] as Card).expires).toBeInstanceOf(Date);
    expect((result.byName.a as Card).expires).toBeInstanceOf(Date);
  });

  it('writes the discriminator and the variant fields on the wire, known fields only', async () => {
    const wire = { kind: 'card', number: '1', expires: '2027-01-31T00:00:00Z', extra: true };
    const response = await post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'Checkout.pay', params: [wire] });
    expect(response.json).toMatchObject({ result: { kind: 'card', number: '1', expires: '2027-01-31T00:00:00.000Z' } });
    expect(JSON.stringify((response.json as { result: unknown }).result)).toBe(
      '{"kind":"card","number":"1","expires":"2027-01-31T00:00:00.000Z"}',
    );
  });

  it('the REST binding carries unions in bodies and results', async () => {
    const response = await post(`${server.url}/Checkout/pay`, { payment: { kind: 'bank_transfer', iban: 'X', memo: 'AQL/' } });
    expect(response).toMatchObject({ status: 200, json: { kind: 'bank_transfer', iban: 'X', memo: 'AQL/' } });
    const bad = await post(`${server.url}/Checkout/pay`, { payment: { iban: 'X' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: -32602, data: { errors: [{ path: 'params.payment.kind' }] } });
  });

  it('bad unions: -32602 with the path of every problem, and the handler never runs', async () => {
    received.length = 0;
    const order = {
      id: 'o2',
      payment: { iban: 'X' }, // no discriminator
      backup: { kind: 'cash' }, // unknown tag
      history: [{ kind: 'card', number: 7, expires: '2027-01-31T00:00:00Z' }], // a bad field of a variant
      byName: { a: { kind: 'card', number: '1', expires: 'tomorrow' } },
      single: { kind: 'only', number: '1', expires: '2027-01-31T00:00:00Z' }, // its discriminator is `type`
    };
    const response = await post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'Checkout.place', params: [order] });
    const error = (response.json as { error: { code: number; data: { errors: { path: string; message: string }[] } } }).error;
    expect(error.code).toBe(-32602);
    expect(error.data.errors.map((problem) => problem.path)).toEqual([
      'params[0].payment.kind',
      'params[0].backup.kind',
      'params[0].history[0].number',
      'params[0].byName.a.expires',
      'params[0].single.type',
    ]);
    expect(error.data.errors[0].message).toBe("missing discriminator 'kind' (one of: card, bank_transfer)");
    expect(error.data.errors[1].message).toBe('expected one of: card, bank_transfer');
    expect(error.data.errors[4].message).toBe("missing discriminator 'type' (one of: only)");
    expect(received).toEqual([]);
  });

  it('a server built from the IDL JSON alone (validators compiled at run time) lists the same problems and converts the same way', async () => {
    const calls: unknown[] = [];
    const rpc = createRpcServer({
      idl: toIdlJson(compileIdl(IDL, 'unions.idl')),
      handlers: {
        Checkout: {
          pay: (payment: Payment) => {
            calls.push(payment);
            return payment;
          },
          place: (order: Order) => order,
        },
      },
    });
    const plain = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
    try {
      const call = (params: unknown[]) => post(`${plain.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'Checkout.pay', params });
      const bad = (await call([{ kind: 'cash' }])).json as { error: { code: number; data: { errors: unknown[] } } };
      expect(bad.error.code).toBe(-32602);
      expect(bad.error.data.errors).toEqual([{ path: 'params[0].kind', message: 'expected one of: card, bank_transfer' }]);
      const missing = (await call([{ number: '1', expires: 'x' }])).json as { error: { data: { errors: unknown[] } } };
      expect(missing.error.data.errors).toEqual([
        { path: 'params[0].kind', message: "missing discriminator 'kind' (one of: card, bank_transfer)" },
      ]);
      expect(calls).toEqual([]);
      const good = await call([{ kind: 'card', number: '1', expires: '2027-01-31T00:00:00Z' }]);
      expect(good.json).toMatchObject({ result: { kind: 'card', number: '1', expires: '2027-01-31T00:00:00.000Z' } });
      expect((calls[0] as Card).expires).toBeInstanceOf(Date);
    } finally {
      await plain.close();
    }
  });
});
