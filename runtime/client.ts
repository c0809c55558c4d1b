/**
 * The client side of the runtime: what generated `<Interface>Client` classes run on.
 * Browser bundles import this file (and the client files it imports: client-call, retry,
 * json-rpc-exchange, transport-error, batching-transport, result-check, json-path), so none may
 * import TypeBox or server code.
 */
import { DeclaredError, ErrorCode, RpcError, RPCError, type DeclaredErrorClass } from './errors.js';
import {
  CONTRACT_HEADER,
  runCall,
  type CallOptions,
  type HttpConnectionSource,
  type HttpTransportOptions,
  type RpcCall,
  type Transport,
} from './client-call.js';
import { declaredErrorOf } from './declared-error-of.js';
import { sendAlone } from './json-rpc-exchange.js';

export { BatchingTransport, type BatchingTransportOptions } from './batching-transport.js';

export { DeclaredError, ErrorCode, RpcError, RPCError, type DeclaredErrorClass };
export { CONTRACT_HEADER } from './client-call.js';
export type {
  CallHandler,
  CallOptions,
  HttpConnectionSource,
  HttpTransportOptions,
  Interceptor,
  ReadSender,
  ReconnectOptions,
  RetryPolicy,
  RpcCall,
  RpcStream,
  StreamConnection,
  StreamOptions,
  Transport,
} from './client-call.js';
export { streamMethod } from './streams/client-stream.js';
export { openHttpStream } from './streams/stream-connection.js';
export { readOverGet } from './read-exchange.js';
export { retryPolicy, type RetryOptions } from './retry.js';
export { validateResults, type ResultProblem, type ResultValidator, type ResultValidators } from './result-check.js';
export { settle, type NoDeclaredErrors, type OtherErrorKind, type RpcPromise, type Settled } from './settle.js';
export type { TransportErrorData } from './transport-error.js';

/**
 * JSON-RPC 2.0 over HTTP POST to `baseAddress`, exactly as given. Every call carries an `id`
 * and positional params. Anything that is not a JSON-RPC response (network failure, non-2xx
 * status, empty or non-JSON body, timeout, abort) becomes an `RpcError` with code -32000 and,
 * when there was a response, `data.status`. Stream methods' calls (`streamMethod`) ask for
 * `text/event-stream` and reconnect as the `reconnect` option says (docs/runtime.md, "Streams").
 * With `reads: readOverGet`, calls of `@readonly` methods go as GETs instead (docs/protocol.md, "Reads over GET").
 */
export class HttpTransport implements Transport, HttpConnectionSource {
  private nextId = 1;

  constructor(
    readonly baseAddress: string,
    readonly options: HttpTransportOptions = {},
  ) {}

  call(method: string, params: unknown[], options?: CallOptions): Promise<unknown> {
    return runCall(this.options, method, params, options, (call) => this.send(call));
  }

  private send(call: RpcCall): Promise<unknown> {
    const doFetch = this.options.fetch ?? globalThis.fetch;
    const { reads } = this.options;
    if (call.read !== undefined && reads !== undefined) return reads(doFetch, this.baseAddress, { ...call, read: call.read });
    return sendAlone(doFetch, this.baseAddress, call, this.nextId++);
  }
}

/**
 * Calls `method` through `transport`. An `RpcError` whose code belongs to one of
 * `declaredErrors` is rethrown as that class (detail = message without its `Name: ` prefix),
 * so `instanceof CartNotFoundError` works on the client. `contract` (what generated clients pass:
 * their interface's fingerprint) is sent in the {@link CONTRACT_HEADER} header; a header of the
 * same name in `options.headers` wins. `read` (generated clients pass it for `@readonly` methods) names
 * the parameters, by which a transport with `reads: readOverGet` sends the call as a GET. Methods with `timestamp` or `bytes` go through
 * `callConvertingMethod` (client-conversion.ts) instead.
 */
export async function callMethod(
  transport: Transport,
  method: string,
  params: unknown[],
  declaredErrors: readonly DeclaredErrorClass[],
  options?: CallOptions,
  contract?: string,
  read?: readonly string[],
): Promise<unknown> {
  try {
    return await callMethodWithoutRaises(transport, method, params, options, contract, read);
  } catch (error) {
    throw declaredErrorOf(error, declaredErrors);
  }
}

/**
 * `callMethod` for a method that declares no errors (no `raises`), which generated clients call for
 * those: a page whose methods raise nothing then carries no code that maps errors to declared classes.
 */
export function callMethodWithoutRaises(
  transport: Transport,
  method: string,
  params: unknown[],
  options?: CallOptions,
  contract?: string,
  read?: readonly string[],
): Promise<unknown> {
  const headers = contract === undefined ? options?.headers : { [CONTRACT_HEADER]: contract, ...options?.headers };
  return transport.call(method, params, { ...options, headers, read });
}
