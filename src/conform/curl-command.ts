/**
 * A request as the `curl` command that sends it again: what each violation of the report comes with.
 * Values given with `-header` are not printed (they are often credentials, and reports end up in CI
 * logs): they are read from the environment variables IDLRPC_HEADER_1, IDLRPC_HEADER_2, ...
 */
import type { HttpRequest } from './http-exchange.js';

/** Quotes a word for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The curl command of `request`; `secretHeaders` are the names given with `-header`, in order. */
export function curlCommand(request: HttpRequest, secretHeaders: readonly string[] = []): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const secret = secretHeaders.findIndex((header) => header.toLowerCase() === name.toLowerCase());
    parts.push('-H', secret === -1 ? shellQuote(`${name}: ${value}`) : `"${name}: $IDLRPC_HEADER_${secret + 1}"`);
  }
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}
