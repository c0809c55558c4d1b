import { JAVASCRIPT_RESERVED_WORDS } from '../javascript-reserved-words.js';

/**
 * Parameter names that OpenAPI tooling treats specially. An IDL parameter with one of these names
 * still converts, but the converter warns: code generators for OpenAPI rename such parameters
 * (they are keywords of JavaScript/TypeScript, the language most OpenAPI clients are generated for),
 * and `accept`/`authorization`/`content-type` are the header names OpenAPI ignores as parameters.
 * Compared case-insensitively.
 */
export const OPENAPI_RESERVED_WORDS: ReadonlySet<string> = new Set([
  // OpenAPI 3 ignores header parameters with these names.
  'accept',
  'authorization',
  'content-type',
  ...JAVASCRIPT_RESERVED_WORDS,
]);

/** True when an OpenAPI client generator would have to rename a parameter of this name. */
export function isOpenApiReservedWord(name: string): boolean {
  return OPENAPI_RESERVED_WORDS.has(name.toLowerCase());
}
