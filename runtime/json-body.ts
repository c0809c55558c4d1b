/**
 * Turns request bodies into JSON values safely: strict UTF-8, bounded nesting, and no `__proto__`
 * keys (JSON.parse keeps them as own properties, and a later naive merge in user code would then
 * replace an object's prototype). Other keys such as `constructor` are ordinary field names and are
 * kept: they live on the parsed object itself and never reach `Object.prototype`.
 */

export type ParsedBody = { ok: true; value: unknown } | { ok: false; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a body; `detail` explains a failure in words fit for `Parse error: <detail>`. */
export function parseJsonBody(body: string | Uint8Array, maxDepth: number): ParsedBody {
  let text: string;
  if (typeof body === 'string') {
    text = body;
  } else {
    try {
      text = utf8.decode(body);
    } catch {
      return { ok: false, detail: 'body is not valid UTF-8' };
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
  if (!sanitize(value, maxDepth)) return { ok: false, detail: `JSON nested deeper than ${maxDepth} levels` };
  return { ok: true, value };
}

/**
 * Removes `__proto__` keys in place and checks the nesting depth; false when too deep.
 * Recursion is safe because it stops at `depthLeft`.
 */
export function sanitize(value: unknown, depthLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depthLeft <= 0) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!sanitize(item, depthLeft - 1)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  // biome-ignore lint/complexity/useLiteralKeys: the own key named __proto__ that JSON.parse made, not the accessor
  // biome-ignore lint/suspicious/noProto: removing exactly that key is the point
  if (Object.hasOwn(record, '__proto__')) delete record['__proto__'];
  for (const key in record) if (!sanitize(record[key], depthLeft - 1)) return false;
  return true;
}
