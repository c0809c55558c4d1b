/**
 * Typed errors per method (docs/runtime.md, "Typed errors"): generated client methods return an
 * `RpcPromise` whose type names the method's declared errors, and `settle` turns it into a
 * discriminated union of the result and exactly those errors, plus `RpcError` for everything else.
 */
import { DeclaredError, RpcError, type DeclaredErrorClass } from './errors.js';

/** The declared errors of a method that declares none. */
export type NoDeclaredErrors = Record<never, never>;

/**
 * What a generated client method returns: a `Promise<T>` whose type also carries the method's
 * declared errors, `Errors` (IDL error name -> error class instance), for {@link settle}.
 */
export interface RpcPromise<T, Errors extends object = NoDeclaredErrors> extends Promise<T> {
  /**
   * Type-only (never set): the method's declared errors. A string key, not a unique symbol, so the
   * types of two copies of this runtime (an installed one and a generated package's) agree; the `~`
   * keeps it at the end of editors' completion lists.
   */
  readonly '~declaredErrors'?: Errors;
}

/** The `kind` of an error that is none of the method's declared errors (a hyphen: no IDL name has one). */
export type OtherErrorKind = 'rpc-error';

/**
 * The outcome of a call: `{ ok: true, value }`, or `{ ok: false, kind, error }` with `kind` the IDL
 * name of a declared error (`error` its class) or `'rpc-error'` for any other `RpcError`
 * (transport failures, invalid params, an unknown method).
 */
export type Settled<T, Errors extends object = NoDeclaredErrors> =
  | { ok: true; value: T; kind?: undefined; error?: undefined }
  | { [K in keyof Errors]: { ok: false; kind: K; error: Errors[K]; value?: undefined } }[keyof Errors]
  | { ok: false; kind: OtherErrorKind; error: RpcError; value?: undefined };

/**
 * Waits for a client call and returns its outcome instead of throwing:
 *
 *     const outcome = await settle(orders.createOrder(request));
 *     if (outcome.ok) show(outcome.value);
 *     else switch (outcome.kind) { case 'CartEmpty': ...; case 'rpc-error': ... }  // exhaustive
 *
 * Anything thrown that is not an `RpcError` (a bug in an interceptor) is thrown again.
 */
export async function settle<T, Errors extends object = NoDeclaredErrors>(call: RpcPromise<T, Errors>): Promise<Settled<T, Errors>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    const kind = error instanceof DeclaredError ? (error.constructor as DeclaredErrorClass).errorName : 'rpc-error';
    return { ok: false, kind, error } as Settled<T, Errors>;
  }
}
