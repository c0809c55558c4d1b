/**
 * The generated TypeScript of an IDL with discriminated unions type-checks under the generated
 * (strict) tsconfig: a `switch` on the discriminator narrows to the variant's struct, handlers and
 * callers pass and return union values, and a wrong tag is refused. The output is deterministic.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, repoRoot, typeCheck } from './helpers.js';

const unionsIdl = path.join(repoRoot, 'test/runtime/fixtures/unions.idl');

const USES = `import { HttpTransport } from './runtime/client.js';
import { CheckoutClient } from './client.js';
import { createPayServer, type Checkout } from './server.js';
import type { Order, Payment } from './types.js';

function describe(payment: Payment): string {
  switch (payment.kind) {
    case 'card':
      return payment.number + payment.expires.toISOString();
    case 'bank_transfer':
      return payment.iban + (payment.memo?.length ?? 0);
  }
}

const handler: Checkout = {
  pay(payment: Payment): Payment {
    return payment.kind === 'card' ? { ...payment, expires: new Date() } : payment;
  },
  place(order: Order): Order {
    return { ...order, history: [...order.history, { kind: 'bank_transfer', iban: describe(order.payment) }] };
  },
};
createPayServer({ Checkout: handler });
const client = new CheckoutClient(new HttpTransport('http://127.0.0.1:1'));
export const result: Promise<Payment> = client.pay({ kind: 'card', number: '4242', expires: new Date() });
`;

test('generated unions narrow on the discriminator and refuse a wrong tag', async () => {
  const dir = freshDir('unions');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', unionsIdl]);
  expect(generated).toMatchObject({ code: 0, stderr: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES.replace("{ kind: 'card', number: '4242'", "{ kind: 'cash', number: '4242'"));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(
    /uses\.ts\(\d+,\d+\): error TS2322: Type '"cash"' is not assignable to type '"(card|bank_transfer)" \| "(card|bank_transfer)"'/,
  );
});

test('generated code of unions is deterministic', async () => {
  const outputs: string[] = [];
  for (const name of ['unions-a', 'unions-b']) {
    const dir = freshDir(name);
    expect(await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, unionsIdl])).toMatchObject({ code: 0 });
    outputs.push(['types.ts', 'server.ts', 'client.ts'].map((file) => readFileSync(path.join(dir, file), 'utf8')).join('\n'));
  }
  expect(outputs[1]).toBe(outputs[0]);
  expect(outputs[0]).toContain("export type Payment =\n  /** By card. */\n  | ({ kind: 'card' } & Card)\n");
});

test('a union whose variants give a converting field different types is refused with a message, and nothing is written', async () => {
  const dir = freshDir('unions-refused');
  const idlFile = path.join(dir, 'conflict.idl');
  writeFileSync(
    idlFile,
    'namespace n\nstruct A {\n    at timestamp\n}\nstruct B {\n    at string\n}\nunion U {\n    a A\n    b B\n}\ninterface I {\n    m(u U) U\n}\n',
  );
  const out = path.join(dir, 'out');
  const result = await idlrpc(['-plugin', 'ts-client-server', '-dir', out, idlFile]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("conflict.idl: Union U: field 'at' has different types in its variants");
  expect(result.stderr).not.toContain('unexpected failure');
  expect(existsSync(out)).toBe(false);
});
