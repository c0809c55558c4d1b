/**
 * The client's mapping of a JSON-RPC error to the method's declared error class, shared by calls
 * (`callMethod`) and streams (`streamMethod`).
 */
import { DeclaredError, RpcError, type DeclaredErrorClass } from './errors.js';

/**
 * `error` as one of `declaredErrors` when it is an `RpcError` with that class's code (detail =
 * message without its `Name: ` prefix, same data), else `error` itself.
 */
export function declaredErrorOf(error: unknown, declaredErrors: readonly DeclaredErrorClass[]): unknown {
  if (!(error instanceof RpcError) || error instanceof DeclaredError) return error;
  const declared = declaredErrors.find((candidate) => candidate.code === error.code);
  if (!declared) return error;
  const prefix = `${declared.errorName}: `;
  const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new declared(detail, error.data);
}
