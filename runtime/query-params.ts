/**
 * The params of a GET read (docs/protocol.md, "Reads over GET"): one query parameter per IDL
 * parameter, by its name, whose value is the parameter's JSON text, percent-encoded. Read as
 * strictly as a JSON body: strict UTF-8, bounded nesting, `__proto__` keys dropped, and every
 * problem named by its JSON path (`params.id`).
 */
import { ErrorCode } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { formatPath } from './json-path.js';

/** The named params of a query, or the error (code and message) that refuses it. */
export type ParsedQuery = { ok: true; params: Record<string, unknown> } | { ok: false; code: number; message: string };

/**
 * Reads `query` (the text after `?`, without it) into named params. `maxDepth` bounds the nesting
 * as it bounds a body's: the params object counts as one level, as `{"id": ...}` would.
 */
export function parseQueryParams(query: string, maxDepth: number): ParsedQuery {
  // Null prototype: a name is only ever an own key, never one of Object.prototype's.
  const params: Record<string, unknown> = Object.create(null);
  if (query === '') return { ok: true, params };
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    if (name === undefined) return parseError('a query parameter name is not valid percent-encoded UTF-8');
    const path = formatPath(['params', name]);
    if (equals === -1) return parseError(`${path}: no value; send the parameter's JSON text, e.g. ${name}=%22text%22`);
    const text = decode(pair.slice(equals + 1));
    if (text === undefined) return parseError(`${path}: the value is not valid percent-encoded UTF-8`);
    // As in JSON bodies: a `__proto__` parameter is dropped (no IDL parameter has that name).
    if (name === '__proto__') continue;
    if (Object.hasOwn(params, name)) {
      return { ok: false, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${path} is given twice in the query` };
    }
    const parsed = parseJsonBody(text, maxDepth - 1);
    if (!parsed.ok) return parseError(`${path}: ${parsed.detail}`);
    params[name] = parsed.value;
  }
  return { ok: true, params };
}

/** Percent-decoding of a query component (`+` is a space, as in forms); undefined for a bad escape or bad UTF-8. */
function decode(text: string): string | undefined {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function parseError(detail: string): ParsedQuery {
  return { ok: false, code: ErrorCode.ParseError, message: `Parse error: ${detail}` };
}
