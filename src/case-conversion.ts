/**
 * Case conversion of IDL names for the generators of other languages (Python's snake_case, Go's and
 * Python's PascalCase). An IDL name is letters, digits and underscores (src/idl/names.ts); its words
 * are split at underscores and at case changes: `productId` -> product, Id; `HTTPServer2` -> HTTP,
 * Server2; `zip_code` -> zip, code.
 */

/** The words of an identifier, as written (`imageURL` -> `image`, `URL`). */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .split('_')
    .filter((word) => word !== '');
}

/** `productId` -> `product_id`, `HTTPServer` -> `http_server`, `zip_code` -> `zip_code`. */
export function snakeCase(name: string): string {
  return identifierWords(name)
    .map((word) => word.toLowerCase())
    .join('_');
}

/** `credit_card` -> `CREDIT_CARD`, `productId` -> `PRODUCT_ID`. */
export function upperSnakeCase(name: string): string {
  return snakeCase(name).toUpperCase();
}

/** `order_status` -> `OrderStatus`, `cartItem` -> `CartItem`, `HTTPError` -> `HTTPError`. */
export function pascalCaseWords(name: string): string {
  return identifierWords(name)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}
