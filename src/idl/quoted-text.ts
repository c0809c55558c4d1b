/** The IDL's double-quoted texts (error messages, import paths, attribute values) as the formatter prints them. */

/** A message as an IDL string literal. Line breaks, which the IDL cannot hold, become spaces. */
export function quoteMessage(message: string): string {
  // Split and joined rather than replaced: replacing each of millions of escapes took about 60
  // bytes apiece while the result was built.
  const escaped = message
    .replace(/\r\n|[\r\n]/g, ' ')
    .split('\\')
    .join('\\\\')
    .split('"')
    .join('\\"');
  return `"${escaped}"`;
}
