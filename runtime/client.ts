/**
 * The client side of the runtime: what generated `<Interface>Client` classes run on.
 * Browser bundles import this file alone, so it must not import TypeBox or server code.
 */
import { DeclaredError, ErrorCode, RpcError, RPCError, type DeclaredErrorClass } from './errors.js';

export { DeclaredError, ErrorCode, RpcError, RPCError, type DeclaredErrorClass };

/**
 * The request header in which generated clients send the contract fingerprint of the interface
 * they call (runtime/contract-fingerprint.ts); servers with `contractMismatch` compare it with
 * their own. Header names are case-insensitive; servers see it lower-cased.
 */
export const CONTRACT_HEADER = 'x-idlrpc-contract';

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call; the call then fails with a -32000 transport error. */
  signal?: AbortSignal;
  /** Overrides the transport's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
}

/** Sends one JSON-RPC call and returns its result, or throws an `RpcError`. */
export interface Transport {
  call(method: string, params: unknown[], options?: CallOptions): Promise<unknown>;
}

export interface HttpTransportOptions {
  /** Headers sent with every call, or a function giving them (e.g. a fresh auth token). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use; defaults to the global one. */
  fetch?: typeof fetch;
  /** Fails a call that takes longer than this, in milliseconds. Default: no limit. */
  timeoutMs?: number;
}

function transportError(detail: string, status?: number): RpcError {
  return new RpcError(ErrorCode.TransportError, `Transport error: ${detail}`, status === undefined ? undefined : { status });
}

/**
 * JSON-RPC 2.0 over HTTP POST to `baseAddress`, exactly as given. Every call carries an `id`
 * and positional params. Anything that is not a JSON-RPC response (network failure, non-2xx
 * status, empty or non-JSON body, timeout, abort) becomes an `RpcError` with code -32000 and,
 * when there was a response, `data.status`.
 */
export class HttpTransport implements Transport {
  private nextId = 1;

  constructor(
    readonly baseAddress: string,
    private readonly options: HttpTransportOptions = {},
  ) {}

  async call(method: string, params: unknown[], options: CallOptions = {}): Promise<unknown> {
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let failure: RpcError | undefined;
    const stop = (error: RpcError) => {
      failure ??= error;
      controller.abort();
    };
    const onAbort = () => stop(transportError('request aborted'));
    const timer =
      timeoutMs === undefined ? undefined : setTimeout(() => stop(transportError(`timed out after ${timeoutMs} ms`)), timeoutMs);
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    try {
      const configured = typeof this.options.headers === 'function' ? await this.options.headers() : this.options.headers;
      const doFetch = this.options.fetch ?? globalThis.fetch;
      let response: Response;
      let text: string;
      try {
        if (failure) throw failure;
        response = await doFetch(this.baseAddress, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...configured, ...options.headers },
          body: JSON.stringify({ jsonrpc: '2.0', method, params, id }),
          signal: controller.signal,
        });
        text = await response.text();
      } catch (error) {
        throw failure ?? transportError(error instanceof Error ? error.message : String(error));
      }
      const status = response.status;
      if (status < 200 || status > 299)
        throw transportError(`HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`, status);
      if (text.trim() === '') throw transportError('empty response', status);
      let message: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown }; id?: unknown };
      try {
        message = JSON.parse(text);
      } catch {
        throw transportError('response is not JSON', status);
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        throw transportError('response is not a JSON-RPC response object', status);
      }
      const { error } = message;
      if (error && typeof error === 'object' && typeof error.code === 'number') {
        throw new RpcError(error.code, String(error.message ?? ''), error.data);
      }
      if (!('result' in message)) throw transportError('response has neither result nor error', status);
      if (message.id !== id) throw transportError(`response id ${JSON.stringify(message.id)} does not match request id ${id}`, status);
      return message.result;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * Calls `method` through `transport`. An `RpcError` whose code belongs to one of
 * `declaredErrors` is rethrown as that class (detail = message without its `Name: ` prefix),
 * so `instanceof CartNotFoundError` works on the client. `contract` (what generated clients pass:
 * their interface's fingerprint) is sent in the {@link CONTRACT_HEADER} header; a header of the
 * same name in `options.headers` wins.
 */
export async function callMethod(
  transport: Transport,
  method: string,
  params: unknown[],
  declaredErrors: readonly DeclaredErrorClass[],
  options?: CallOptions,
  contract?: string,
): Promise<unknown> {
  const callOptions = contract === undefined ? options : { ...options, headers: { [CONTRACT_HEADER]: contract, ...options?.headers } };
  try {
    return await transport.call(method, params, callOptions);
  } catch (error) {
    if (!(error instanceof RpcError) || error instanceof DeclaredError) throw error;
    const declared = declaredErrors.find((candidate) => candidate.code === error.code);
    if (!declared) throw error;
    const prefix = `${declared.errorName}: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new declared(detail, error.data);
  }
}
