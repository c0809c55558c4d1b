/**
 * What a name in the IDL may be (docs/idl.md), shared by the parser and the checker (which
 * also checks trees built by code, such as the OpenAPI converter's).
 */

/** Words that cannot be used as names. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'namespace',
  'interface',
  'struct',
  'enum',
  'errors',
  'raises',
  'extends',
  'map',
  'string',
  'int',
  'float',
  'bool',
  'import',
]);

/** Identifiers of the IDL: a letter, then letters, digits or underscores. */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Why `name` cannot be used as a name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (RESERVED_WORDS.has(name)) return `'${name}' is a reserved word and cannot be used as a name`;
  if (!IDENTIFIER_PATTERN.test(name)) {
    return `'${name}' is not a valid name: use letters, digits and underscores, starting with a letter`;
  }
  return undefined;
}
