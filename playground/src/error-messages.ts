import { RpcError } from 'unplugin-idl-rpc/runtime/client';
import { CartEmptyError, CartNotFoundError, InvalidAddressError, OutOfStockError, PaymentFailedError } from '../checkout.idl';

/** An error as the page shows it: a sentence for people, and the wire error for developers. */
export interface ReadableError {
  title: string;
  detail?: string;
  /** `CartEmpty (1002)`, `-32602`, ...: what came over the wire (or why nothing was sent). */
  wire: string;
}

const cartEmptyTitle = 'Your cart is empty. Add a product before you check out.';

/**
 * Place order on a page that has no cart yet (nothing was ever added): the cart is as empty as
 * one the server would answer CartEmpty for, so the page explains it the same way, without a call.
 */
export const noCartYet: ReadableError = { title: cartEmptyTitle, wire: 'not sent: no cart yet' };

/**
 * Turns a failed call into something a shopper can act on. The declared errors of checkout.idl
 * arrive as their generated classes, so `instanceof` tells them apart.
 */
export function readableError(error: unknown): ReadableError {
  if (!(error instanceof RpcError)) {
    return { title: 'Something went wrong in the page.', detail: String(error), wire: 'client error' };
  }
  const wire = `${error.message.split(':')[0]} (${error.code})`;
  const detail = error.message.replace(/^[A-Za-z]+: /, '');
  if (error instanceof CartEmptyError) {
    return { title: cartEmptyTitle, wire };
  }
  if (error instanceof CartNotFoundError) {
    return {
      title: 'The server does not know this cart any more (was it restarted?). Add a product to start a new cart.',
      wire,
    };
  }
  if (error instanceof OutOfStockError) {
    return { title: 'Sorry, we do not have enough in stock for this order.', detail, wire };
  }
  if (error instanceof InvalidAddressError) {
    return { title: 'Please check the shipping address.', detail, wire };
  }
  if (error instanceof PaymentFailedError) {
    return { title: 'Your payment was declined. Try another payment method or address.', detail, wire };
  }
  if (error.code === -32000) {
    return { title: 'Cannot reach the checkout service. Is the dev server running?', detail, wire: `${error.code}` };
  }
  return { title: 'The checkout service answered with an error.', detail: error.message, wire: `${error.code}` };
}
