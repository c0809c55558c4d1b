import type { Address, PaymentMethod } from '../checkout.idl';

/**
 * The zip code for which the playground's payment simulator declines every payment, so that
 * PaymentFailed (1003) can be tried from the page or a client, like a bank's test card number.
 */
export const declinedZipCode = '00000';

/**
 * Simulates charging the customer. Returns why the payment was declined, or undefined when it
 * went through. No real payment provider is involved.
 */
export function declineReason(address: Address, paymentMethod: PaymentMethod): string | undefined {
  if (address.zipCode.trim() === declinedZipCode) {
    return `${paymentMethod} payment was declined (test zip code ${declinedZipCode})`;
  }
  return undefined;
}
