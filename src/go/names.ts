/**
 * Names in generated Go: exported PascalCase for declarations, lowerCamel for parameters, and the
 * one rule of the other targets when a name cannot be used as it is: append `_` until it can.
 * Wire names (JSON fields, method names, enum values) never change; only Go identifiers do.
 */
import { pascalCaseWords } from '../case-conversion.js';

/** Go's keywords: no identifier may be one. */
export const GO_KEYWORDS: ReadonlySet<string> = new Set(
  'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var'.split(
    ' ',
  ),
);

/** Go's predeclared identifiers: a parameter so named would hide the type or function. */
export const GO_PREDECLARED: ReadonlySet<string> = new Set(
  'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make max min new panic print println real recover'.split(
    ' ',
  ),
);

/** `credit_card` -> `CreditCard`, `productId` -> `ProductId`; a name that starts with a digit gets `X`. */
export function pascalCase(name: string): string {
  const joined = pascalCaseWords(name);
  if (joined === '') return 'X';
  return /^[0-9]/.test(joined) ? `X${joined}` : joined;
}

/** `order_id` -> `orderId`, `OrderID` -> `orderID`: a parameter or local name. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  if (pascal.startsWith('X') && /^[0-9]/.test(pascal.slice(1))) return `x${pascal.slice(1)}`;
  return pascal[0].toLowerCase() + pascal.slice(1);
}

/** `name` with `_` appended until `taken` does not hold it; the result is added to `taken`. */
export function claim(name: string, taken: Set<string>): string {
  let result = name;
  while (taken.has(result) || GO_KEYWORDS.has(result)) result += '_';
  taken.add(result);
  return result;
}

/** A Go package name for a namespace: its letters, digits and underscores, lower case. */
export function packageName(namespace: string): string {
  const name = namespace.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return /^[a-z_]/.test(name) ? name : `x${name}`;
}
