import type { Address } from '../checkout.idl';

const addressFields = ['street', 'city', 'state', 'zipCode', 'country'] as const;

/**
 * Postal codes of most countries: 3 to 10 letters, digits, spaces or hyphens, starting and ending
 * with a letter or digit (12345, 12345-6789, SW1A 1AA, K1A 0B6, 1012 AB).
 */
const postalCodeShape = /^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/;

/** One problem with a shipping address: the field and what is wrong with it. */
export interface AddressProblem {
  field: (typeof addressFields)[number];
  message: string;
}

/**
 * The rule behind InvalidAddress (1005): every field must hold more than blanks and at most
 * `maxFieldLength` characters, and the zip code must look like a postal code. Returns every
 * problem, in field order; empty when the address is fine.
 */
export function addressProblems(address: Address, maxFieldLength = 200): AddressProblem[] {
  const problems: AddressProblem[] = [];
  for (const field of addressFields) {
    if (address[field].trim() === '') problems.push({ field, message: `${field} is empty` });
    else if (address[field].length > maxFieldLength) {
      problems.push({ field, message: `${field} is longer than ${maxFieldLength} characters` });
    }
  }
  const zipCode = address.zipCode.trim();
  if (zipCode !== '' && !postalCodeShape.test(zipCode)) {
    problems.push({ field: 'zipCode', message: 'zipCode must be 3 to 10 letters, digits, spaces or hyphens' });
  }
  return problems;
}
