/**
 * Errors shared by clients and servers. Kept free of imports so browser bundles stay small.
 */

/** JSON-RPC 2.0 error codes used by this runtime (docs/protocol.md §1). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  TransportError: -32000,
  /** A client of another version of the interface, refused by a server with `contractMismatch: 'reject'`. */
  ContractMismatch: -32001,
  /**
   * The server refuses the call for the rate of its client (a budget per client and time window,
   * such as the playground's new carts); the REST binding answers it with HTTP 429. The number
   * echoes the HTTP status, in JSON-RPC's range for server errors.
   */
  TooManyRequests: -32029,
} as const;

/**
 * Marks RPC errors across copies of this runtime (a bundled copy and an installed copy can coexist,
 * and `instanceof` would miss the other copy's errors).
 */
// The key keeps its first spelling, so that copies of older releases recognise each other's errors.
const rpcErrorBrand = Symbol.for('unplugin-idl-rpc.RPCError');

/** A JSON-RPC error: thrown by clients for error responses, and by handlers to answer with one. */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asks about (a subclass keeps the usual check)
    if (this !== RpcError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[rpcErrorBrand] === true;
  }
}
Object.defineProperty(RpcError.prototype, rpcErrorBrand, { value: true });

/** @deprecated Renamed to {@link RpcError} (one spelling of the prefix in every public name); this alias stays. */
export const RPCError = RpcError;
/** @deprecated Renamed to {@link RpcError}. */
export type RPCError = RpcError;

/** The static side of a generated declared-error class. */
export interface DeclaredErrorClass {
  new (detail?: string, data?: unknown): DeclaredError;
  readonly code: number;
  readonly errorName: string;
  readonly defaultMessage: string;
}

/**
 * Base of the generated classes for the IDL `errors` block. A subclass only sets its statics:
 *
 *     class CartNotFoundError extends DeclaredError {
 *       static readonly code = 1001; static readonly errorName = 'CartNotFound';
 *       static readonly defaultMessage = 'cart does not exist';
 *     }
 *
 * The message is `<errorName>: <detail or defaultMessage>`, as docs/protocol.md §1 says.
 */
export abstract class DeclaredError extends RpcError {
  // The statics (code, errorName, defaultMessage) are deliberately not declared here: a declaration
  // would force generated subclasses to write `override` under `noImplicitOverride`.
  // `DeclaredErrorClass` types them.
  /** The message without the `<errorName>: ` prefix. */
  readonly detail: string;

  constructor(detail?: string, data?: unknown) {
    const declared = new.target as unknown as DeclaredErrorClass;
    const text = detail ?? declared.defaultMessage;
    super(declared.code, `${declared.errorName}: ${text}`, data);
    this.name = `${declared.errorName}Error`;
    this.detail = text;
  }
}
