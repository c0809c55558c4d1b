/**
 * The methods a server answers: every IDL method of each registered interface, paired with its
 * handler function at start-up, so a call finds its handler with one map lookup.
 */
import { type WireConversion, wireConversions } from './wire-conversion.js';
import type { IdlJson, IdlJsonMethod } from './idl-json.js';
import { type OptionalParameters, optionalParameters } from './optional-parameters.js';
import { fieldDefaultFillers } from './field-defaults.js';

/** One callable method: `"<Interface>.<method>"`, its IDL declaration and its handler. */
export interface MethodEntry {
  name: string;
  method: IdlJsonMethod;
  parameterNames: string[];
  handler: object;
  fn: (...args: unknown[]) => unknown;
  /** How its `timestamp` and `bytes` parameters and result convert (wire-conversion.ts); absent when none do. */
  conversion?: WireConversion;
  /** Its `[optional]` parameters (they follow the required ones); absent when it has none. */
  optional?: OptionalParameters;
  /** Fills the field defaults of each parameter (field-defaults.ts); absent when no parameter reaches one. */
  fieldDefaults?: (((value: unknown) => void) | undefined)[];
}

/**
 * Pairs every IDL method of a registered interface with its handler function, keyed by
 * `"<Interface>.<method>"`. Throws when handlers do not fit the IDL.
 */
export function registerHandlers(idl: IdlJson, handlers: Record<string, object>): Map<string, MethodEntry> {
  const interfaces = new Map((idl.interfaces ?? []).map((i) => [i.name, i] as const));
  const methods = new Map<string, MethodEntry>();
  const conversions = wireConversions(idl);
  const fieldDefaults = fieldDefaultFillers(idl);
  for (const interfaceName of Object.keys(handlers)) {
    const iface = interfaces.get(interfaceName);
    if (!iface) {
      const known = [...interfaces.keys()].join(', ') || 'none';
      throw new Error(
        `createRpcServer: handler registered for "${interfaceName}", which is not an interface of the IDL (interfaces: ${known})`,
      );
    }
    const handler = handlers[interfaceName];
    if (typeof handler !== 'object' || handler === null)
      throw new Error(`createRpcServer: the handler of ${interfaceName} must be an object`);
    for (const method of iface.methods ?? []) {
      const fn = handlerMethod(handler, method.name);
      if (typeof fn !== 'function') throw new Error(`createRpcServer: the handler of ${interfaceName} has no method ${method.name}`);
      const name = `${interfaceName}.${method.name}`;
      const entry: MethodEntry = {
        name,
        method,
        parameterNames: (method.parameters ?? []).map((p) => p.name),
        handler,
        fn: fn as MethodEntry['fn'],
      };
      const optional = optionalParameters(method);
      if (optional !== undefined) entry.optional = optional;
      const fillers = fieldDefaults.get(name);
      if (fillers !== undefined) entry.fieldDefaults = fillers;
      const conversion = conversions.get(name);
      if (conversion !== undefined) entry.conversion = conversion;
      methods.set(name, entry);
    }
  }
  return methods;
}

/**
 * The handler's own method, or its class's (up the class chain), never one `Object.prototype`
 * lends every object: an IDL method named `toString` needs a handler that has one. Nor is a
 * class's `constructor` (the class itself) a method.
 */
function handlerMethod(handler: object, name: string): unknown {
  if (Object.hasOwn(handler, name)) return (handler as Record<string, unknown>)[name];
  if (name === 'constructor') return undefined;
  for (
    let owner = Object.getPrototypeOf(handler) as object | null;
    owner !== null && owner !== Object.prototype;
    owner = Object.getPrototypeOf(owner)
  ) {
    if (Object.hasOwn(owner, name)) return (handler as Record<string, unknown>)[name];
  }
  return undefined;
}
