/**
 * Strings that are no text. JSON carries `\u0000` and lone surrogates (`\ud800` without its pair)
 * in strings, `JSON.parse` hands them to handlers as they are, and the IDL's `string` accepts them;
 * but no text store takes them as they are: PostgreSQL refuses NUL in `text`, and UTF-8 has no
 * encoding for a lone surrogate (encoders write U+FFFD instead, so `a\ud800`, `a\udc00` and
 * `a\ufffd` become one and the same key). A service that stores or compares strings as text checks
 * its params with these (opt-in: the server accepts such strings by default, as JSON does).
 */
import type { RpcContext } from './call-context.js';
import { ErrorCode, RpcError } from './errors.js';
import { MAX_ISSUES, type ValidationIssue } from './explain.js';
import type { RpcMiddleware } from './middleware.js';
import { formatPath } from './validation.js';

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one (code units, no `u` flag). */
const NON_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What makes `text` no text, in plain words (`holds a NUL character (\u0000) at index 6`,
 * `holds a lone surrogate (\ud800) at index 6`); undefined when it is text.
 */
export function nonTextProblem(text: string): string | undefined {
  const match = NON_TEXT.exec(text);
  if (match === null) return undefined;
  const unit = match[0].charCodeAt(0);
  const what = unit === 0 ? 'a NUL character (\\u0000)' : `a lone surrogate (\\u${unit.toString(16)})`;
  return `holds ${what} at index ${match.index}`;
}

/**
 * Every string in `value` (and every field name) that is no text, with its path relative to
 * `value`, in document order, at most `MAX_ISSUES`; empty when there is none. Walks arrays and own
 * enumerable fields, each object once (a cycle ends there), without recursion (no depth limit).
 */
export function nonTextStrings(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<object>();
  // Depth first, children pushed last to first, so that the issues come out in document order.
  // Each entry points to its parent: paths are spelled out only for the issues.
  const pending: Place[] = [{ value, parent: undefined, segment: '' }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const place = pending.pop()!;
    if (typeof place.value === 'string') {
      const problem = nonTextProblem(place.value);
      if (problem !== undefined) issues.push({ path: pathOf(place), message: problem });
      continue;
    }
    if (typeof place.value !== 'object' || place.value === null || seen.has(place.value)) continue;
    seen.add(place.value);
    const container = place.value as Record<string, unknown>;
    const isArray = Array.isArray(container);
    const keys = Object.keys(container);
    for (let i = keys.length - 1; i >= 0; i--) {
      const item = container[keys[i]];
      if (typeof item === 'string' || (typeof item === 'object' && item !== null)) {
        pending.push({ value: item, parent: place, segment: isArray ? i : keys[i] });
      }
    }
    if (isArray) continue;
    for (const key of keys) {
      const problem = nonTextProblem(key);
      if (problem !== undefined && issues.length < MAX_ISSUES)
        issues.push({ path: [...pathOf(place), key], message: `its name ${problem}` });
    }
  }
  return issues;
}

/** A value met by `nonTextStrings`, where it sits: its container's place and its key there. */
interface Place {
  value: unknown;
  parent: Place | undefined;
  segment: string | number;
}

function pathOf(place: Place): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Place | undefined = place; at?.parent !== undefined; at = at.parent) path.push(at.segment);
  return path.reverse();
}

/**
 * The -32602 for params (in IDL order) holding strings that are no text, or undefined when all are
 * text: `Invalid params: params[0].cartId: holds a NUL character (\u0000) at index 6`, every
 * offending string in `data.errors` (at most `MAX_ISSUES`), the paths in the call's style
 * (`ctx.paramPath`: `params.request.cartId` for named params and the OpenAPI binding), positional
 * without a context.
 */
export function nonTextParamsError(params: readonly unknown[], ctx?: RpcContext): RpcError | undefined {
  let errors: { path: string; message: string }[] | undefined;
  for (let index = 0; index < params.length && (errors?.length ?? 0) < MAX_ISSUES; index++) {
    const param = params[index];
    if (typeof param !== 'string' && (typeof param !== 'object' || param === null)) continue;
    for (const issue of nonTextStrings(param)) {
      const path = ctx ? ctx.paramPath(index, ...issue.path) : formatPath(['params', index, ...issue.path]);
      (errors ??= []).push({ path, message: issue.message });
    }
  }
  if (errors === undefined) return undefined;
  errors = errors.slice(0, MAX_ISSUES);
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: ${errors[0].path}: ${errors[0].message}`, { errors });
}

/**
 * Middleware refusing every call whose params hold a string (or a field name) that is no text:
 * a NUL character or a lone surrogate. The answer is `nonTextParamsError`'s -32602 (HTTP 400 over
 * the OpenAPI binding), before the handler runs. For services that keep strings as text
 * (docs/runtime.md, "Strings that are no text"); the server accepts them without it.
 */
export const textStringsOnly: RpcMiddleware = (call, next) => {
  const refused = nonTextParamsError(call.params, call.ctx);
  if (refused !== undefined) throw refused;
  return next();
};
