/**
 * The client's calls of methods with `timestamp` or `bytes` in their parameters or result
 * (docs/runtime.md, "Timestamps and bytes"). A module of its own: clients without such methods never
 * import it, so their bundles do not carry the conversions. Exported by `runtime/core` (not by
 * `runtime/client`, whose entry stays as it was).
 */
import type { CallOptions, Transport } from './client-call.js';
import { callMethod } from './client.js';
import type { DeclaredErrorClass } from './errors.js';
import { convertWire, type WireConversion } from './wire-conversion.js';

/**
 * `callMethod`, with the params' `Date`s and `Uint8Array`s written in their wire forms (copies: the
 * caller's objects are left as they are) and the result's made `Date`s and `Uint8Array`s.
 * `conversion` is what `wireConversions` gives for the method (generated clients pass it).
 */
export async function callConvertingMethod(
  transport: Transport,
  method: string,
  params: unknown[],
  declaredErrors: readonly DeclaredErrorClass[],
  options: CallOptions | undefined,
  contract: string | undefined,
  conversion: WireConversion,
  read?: readonly string[],
): Promise<unknown> {
  const { p, r, s } = conversion;
  const wire = params.map((param, index) => (p[index] ? convertWire(param, p[index], s, true) : param));
  const result = await callMethod(transport, method, wire, declaredErrors, options, contract, read);
  return r ? convertWire(result, r, s, false) : result;
}
