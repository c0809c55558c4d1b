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
  // A plain object, read only through own keys (Object.hasOwn, Object.keys) by the call pipeline;
  // `__proto__`, the one name that would not be an own key, is dropped below.
  const params: Record<string, unknown> = {};
  if (query === '') return { ok: true, params };
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    if (name === undefined) return parseError('a query parameter name is not valid percent-encoded UTF-8');
    if (equals === -1) return parseError(`${pathOf(name)}: no value; send the parameter's JSON text, e.g. ${name}=%22text%22`);
    const text = decode(pair.slice(equals + 1));
    if (text === undefined) return parseError(`${pathOf(name)}: the value is not valid percent-encoded UTF-8`);
    // As in JSON bodies: a `__proto__` parameter is dropped (no IDL parameter has that name).
    if (name === '__proto__') continue;
    if (Object.hasOwn(params, name)) {
      return { ok: false, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${pathOf(name)} is given twice in the query` };
    }
    const parsed = parseJsonBody(text, maxDepth - 1);
    if (!parsed.ok) return parseError(`${pathOf(name)}: ${parsed.detail}`);
    params[name] = parsed.value;
  }
  return { ok: true, params };
}

/** Percent-decoding of a query component (`+` is a space, as in forms); undefined for a bad escape or bad UTF-8. */
function decode(text: string): string | undefined {
  const spaced = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** The JSON path of a parameter, as error messages write it (only made for a message). */
function pathOf(name: string): string {
  return formatPath(['params', name]);
}

function parseError(detail: string): ParsedQuery {
  return { ok: false, code: ErrorCode.ParseError, message: `Parse error: ${detail}` };
}
