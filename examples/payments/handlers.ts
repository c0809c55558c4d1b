// The service behind payments.idl, kept in memory. The handler types come from the declarations the
// plugin writes beside the IDL (payments.idl.d.ts): `Payment.method` narrows on `type`, `createdAt`
// is a Date, `receipt` a Uint8Array, and `list` gets `perPage` already defaulted to 20.
import { randomUUID } from 'node:crypto';
import { type Payment, type PaymentsHandlers, PaymentNotFoundError } from './payments.idl';

const payments: Payment[] = [];

/** A receipt: the payment's id and amount, as bytes. */
function receiptOf(id: string, payment: Pick<Payment, 'amount'>): Uint8Array {
  return new TextEncoder().encode(`${id} ${payment.amount.amount} ${payment.amount.currency}`);
}

export const handlers: PaymentsHandlers = {
  PaymentService: {
    create(payment) {
      const id = randomUUID();
      // The server has already checked every constraint and filled `tags` with its default.
      const created: Payment = { ...payment, id, createdAt: new Date(), receipt: receiptOf(id, payment) };
      payments.unshift(created);
      return created;
    },
    get(id) {
      const payment = payments.find((p) => p.id === id);
      if (!payment) throw new PaymentNotFoundError();
      return payment;
    },
    list(cursor, perPage) {
      const start = cursor === undefined ? 0 : payments.findIndex((p) => p.id === cursor) + 1;
      return payments.slice(start, start + perPage);
    },
    all() {
      return payments;
    },
  },
};
