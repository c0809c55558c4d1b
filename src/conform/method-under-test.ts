/**
 * One method of the IDL as `-conform` sees it: its JSON-RPC name, its REST path, its validators, and
 * whether a list of arguments is a valid call of it.
 */
import type { IdlJsonInterface, IdlJsonMethod } from '../../runtime/idl-json.js';
import type { MethodValidators } from '../../runtime/validation.js';

export interface MethodUnderTest {
  /** `<Interface>.<method>`: the JSON-RPC `method`. */
  name: string;
  iface: IdlJsonInterface;
  method: IdlJsonMethod;
  validators: MethodValidators;
  /** The interface's contract fingerprint, sent as `x-idlrpc-contract` as generated clients do. */
  contract: string;
  /** The codes of the errors the method raises, with each error's plain name (its message starts with it). */
  declaredErrors: ReadonlyMap<number, string>;
}

/**
 * Whether positional arguments are a call the IDL accepts: no more than the parameters, every
 * required one present and every present one valid (an optional one may be left out or `null`).
 */
export function argumentsAreValid(target: MethodUnderTest, args: readonly unknown[]): boolean {
  const parameters = target.method.parameters ?? [];
  if (args.length > parameters.length) return false;
  return parameters.every((parameter, i) => {
    const value = args[i];
    if (value === undefined || value === null) return parameter.optional === true || (value === null && isJsonType(parameter.type));
    return target.validators.params[i].check(value);
  });
}

function isJsonType(type: object): boolean {
  return 'builtIn' in type && type.builtIn === 'json';
}

/** The arguments as named params (REST bodies, and JSON-RPC's by-name form); extra ones get made-up names. */
export function namedArguments(target: MethodUnderTest, args: readonly unknown[]): Record<string, unknown> {
  const parameters = target.method.parameters ?? [];
  const named: Record<string, unknown> = {};
  args.forEach((value, i) => {
    if (value !== undefined) named[parameters[i]?.name ?? `unexpected${i}`] = value;
  });
  return named;
}
