/**
 * Optional parameters and defaults on the server (docs/runtime.md, "Optional parameters"): what a
 * request leaves out, or sends as `null`, is the parameter's default, or `undefined` without one,
 * before validation and the handler. A default is copied for each call, so a handler that changes
 * it (`push` onto a `[]` default) never changes what the next call gets.
 */
import type { IdlJsonMethod } from './idl-json.js';

/** The optional parameters of a method: where they start, and each one's default (boxed: `null` is a default). */
export interface OptionalParameters {
  /** How many parameters are required (the optional ones follow them). */
  required: number;
  /** By parameter index: `{ value }` for a parameter with a default, undefined for one without. */
  defaults: ({ value: unknown } | undefined)[];
}

/** The optional parameters of `method`, or undefined when it has none. */
export function optionalParameters(method: IdlJsonMethod): OptionalParameters | undefined {
  const parameters = method.parameters ?? [];
  const first = parameters.findIndex((p) => p.optional === true);
  if (first < 0) return undefined;
  return {
    required: first,
    defaults: parameters.map((p) => (p.optional === true && Object.hasOwn(p, 'default') ? { value: p.default } : undefined)),
  };
}

/** A fresh copy of a JSON default: no call shares a default object or array with another. */
export function freshDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * The arguments with every left-out or `null` optional parameter replaced by its default (a fresh
 * copy), or `undefined`; a new array, `args` is not changed.
 */
export function withDefaults(args: readonly unknown[], count: number, optional: OptionalParameters): unknown[] {
  const filled = new Array<unknown>(count);
  for (let index = 0; index < count; index++) {
    const value = args[index];
    const isLeftOut = index >= optional.required && (value === undefined || value === null);
    if (!isLeftOut) filled[index] = value;
    else {
      const fallback = optional.defaults[index];
      filled[index] = fallback === undefined ? undefined : freshDefault(fallback.value);
    }
  }
  return filled;
}
