/**
 * What a handler learns about its call: the transport's `RequestContext` in, the handler's
 * `RpcContext` out (its last argument).
 */
import type { JsonRpcId } from './call-outcome.js';
import { formatPath } from './validation.js';

/** What the transport knows about the HTTP request a call arrived in. */
export interface RequestContext {
  /** Request headers, names lower-cased. */
  headers?: Record<string, string>;
  remoteAddress?: string;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

/** The context passed to a handler method as its last argument. */
export interface RpcContext {
  headers: Record<string, string>;
  remoteAddress?: string;
  /** The JSON-RPC id; `undefined` for a notification, `null` for the OpenAPI binding. */
  id: string | number | null | undefined;
  /** `"<Interface>.<method>"`. */
  method: string;
  /** Aborted when the client goes away or the handler times out. */
  signal: AbortSignal;
  /**
   * The JSON path of a parameter (by IDL position or name) and of something inside it, in the
   * style of the call, as the server's own validation errors give it: `params[0].quantity` for
   * positional params, `params.request.quantity` for named params and the REST binding. For
   * errors a handler raises about its params, so they read like the server's. Throws on a
   * parameter the method does not have.
   */
  paramPath(parameter: number | string, ...path: (string | number)[]): string;
  /**
   * A stream method's call resumed after a lost connection: the `Last-Event-ID` the client sent
   * (the id of the last item it received), when it is a usable event id; undefined otherwise and
   * for other methods. Whether it is an id this server gave out is for the handler to judge.
   */
  lastEventId?: string;
}

/** The members of every context, which values added by middleware must not replace. */
const OWN_MEMBERS = new Set(['headers', 'remoteAddress', 'id', 'method', 'signal', 'paramPath', 'lastEventId']);

/**
 * The context a handler receives. `signal` is built the first time a handler reads it: an
 * AbortController plus AbortSignal.any per call was the largest cost of a call, and most handlers
 * never look at it. It is a getter on the class, not in an object literal: a getter closure per
 * object gives every context its own hidden class, which costs more than the signal did.
 */
export class CallContext implements RpcContext {
  remoteAddress: string | undefined;
  id: string | number | null | undefined;
  method: string;
  lastEventId: string | undefined;
  readonly #request: RequestContext;
  readonly #parameterNames: readonly string[];
  readonly #named: boolean;
  #headers: Record<string, string> | undefined;
  #signal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #abortReason: Error | undefined;

  /** `named`: the params came as an object (named JSON-RPC params, the REST binding), not an array. */
  constructor(request: RequestContext, id: JsonRpcId | undefined, method: string, parameterNames: readonly string[], named: boolean) {
    this.remoteAddress = request.remoteAddress;
    this.id = id;
    this.method = method;
    this.lastEventId = undefined;
    this.#request = request;
    this.#parameterNames = parameterNames;
    this.#named = named;
  }

  paramPath(parameter: number | string, ...path: (string | number)[]): string {
    const names = this.#parameterNames;
    const index = typeof parameter === 'number' ? parameter : names.indexOf(parameter);
    if (!Number.isInteger(index) || index < 0 || index >= names.length) {
      throw new RangeError(`paramPath: ${this.method} has no parameter ${JSON.stringify(parameter)} (parameters: ${names.join(', ')})`);
    }
    return formatPath(['params', this.#named ? names[index] : index, ...path]);
  }

  /** Read from the request on first use: the Node adapter builds its header record only when asked. */
  get headers(): Record<string, string> {
    return (this.#headers ??= this.#request.headers ?? {});
  }

  set headers(value: Record<string, string>) {
    this.#headers = value;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      if (this.#abortReason !== undefined) controller.abort(this.#abortReason);
      this.#controller = controller;
      // AbortSignal.any, not a listener per call: a batch would pile listeners onto one request signal.
      const requestSignal = this.#request.signal;
      this.#signal = requestSignal ? AbortSignal.any([requestSignal, controller.signal]) : controller.signal;
    }
    return this.#signal;
  }

  /** Handlers could assign `ctx.signal` when it was a plain field; keep that working. */
  set signal(value: AbortSignal) {
    this.#signal = value;
  }

  /**
   * Copies values a middleware adds (`next(added)`) onto the context; the context's own members
   * cannot be replaced. Static, so handlers never see it on ctx.
   */
  static addValues(ctx: CallContext, added: object): void {
    for (const key of Object.keys(added)) {
      if (OWN_MEMBERS.has(key)) throw new Error(`middleware of ${ctx.method} passed next({ ${key} }): ctx.${key} is the server's own`);
    }
    Object.assign(ctx, added);
  }

  /** Aborts the call's signal (now, or when it is first read). Static, so handlers never see it on ctx. */
  static abort(ctx: CallContext, reason: Error): void {
    ctx.#abortReason = reason;
    ctx.#controller?.abort(reason);
  }
}
