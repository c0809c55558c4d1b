// Calls the payments service with the generated client: `node dist/client.mjs [address]`.
import { HttpTransport, RpcError } from 'unplugin-idl-rpc/runtime/client';
import { PaymentServiceClient, type PaymentMethod } from './payments.idl';

const service = new PaymentServiceClient(new HttpTransport(process.argv[2] ?? 'http://localhost:8080'));

/** One line about a payment method: the union narrows on its `type`. */
function describe(method: PaymentMethod): string {
  switch (method.type) {
    case 'card':
      return `card ending ${method.last4}`;
    case 'bank_transfer':
      return `transfer from ${method.iban}`;
  }
}

const byCard = await service.create({
  amount: { amount: 1250, currency: 'EUR' },
  method: { type: 'card', last4: '4242', holder: 'Ada Lovelace' },
  email: 'ada@example.com',
  metadata: { orderNumber: 17, gift: true },
});
// `createdAt` arrives as a Date and `receipt` as a Uint8Array; `tags` got its default.
console.log(`created ${describe(byCard.method)}: ${byCard.amount.amount} ${byCard.amount.currency}, tags ${JSON.stringify(byCard.tags)}`);
console.log(`createdAt is a Date: ${byCard.createdAt instanceof Date}, receipt is ${byCard.receipt.length} bytes`);

const byTransfer = await service.create({
  amount: { amount: 99900, currency: 'USD' },
  method: { type: 'bank_transfer', iban: 'DE89370400440532013000', reference: 'invoice 7' },
  dueOn: '2026-12-31',
  email: 'grace@example.com',
  tags: ['invoice'],
});
console.log(`created ${describe(byTransfer.method)}, due ${byTransfer.dueOn}`);

// Optional parameters left out: the server uses perPage's default.
const page = await service.list();
console.log(`list: ${page.length} payments, newest first: ${page.map((p) => p.method.type).join(', ')}`);
const next = await service.list(page[0].id, 1);
console.log(`after the newest, one: ${describe(next[0].method)}`);

try {
  // Types cannot say `min=1`: the server refuses it with every problem and its JSON path.
  await service.create({
    amount: { amount: 0, currency: 'EUR' },
    method: { type: 'card', last4: '42', holder: '' },
    email: 'not an address',
  });
} catch (error) {
  if (!(error instanceof RpcError)) throw error;
  const problems = (error.data as { errors: { path: string }[] }).errors.map((problem) => problem.path);
  console.log(`refused with ${error.code}: ${problems.join(', ')}`);
}
