/**
 * Middleware around calls (the `middleware` and `middlewareFor` options of `createRpcServer`): a
 * function that runs before and after the handler of every call it applies to, on both bindings
 * and for each member of a batch. It sees the method, the params and the handler's context; it can
 * answer instead of the handler (throw an RpcError or a declared error to reject the call), look at
 * the outcome (`await next()` gives the result or throws the error), and add typed values to the
 * context the handlers read. It runs on the call pipeline's interceptor seam (call-pipeline.ts).
 */
import type { RpcContext } from './call-context.js';
import type { CallInterceptor } from './call-pipeline.js';
import type { MethodEntry } from './method-table.js';

/** No context values: what a middleware needs or adds when it says nothing. */
export type NoValues = Record<never, never>;

/** A call as a middleware sees it: `ctx` holds what the middleware before it added (`Needs`). */
export interface RpcMiddlewareCall<Needs extends object = NoValues> {
  /** `"<Interface>.<method>"`. */
  readonly method: string;
  /** The arguments in IDL order, validated (unless `validateRequests` is off). */
  readonly params: readonly unknown[];
  /** The context the handler gets as its last argument. */
  readonly ctx: RpcContext & Needs;
}

/**
 * Runs the rest of the call: the middleware after this one, then the handler. Resolves to the
 * handler's result, rejects with its error. `added` (required when the middleware declares values
 * it adds) is copied onto the context first, where the handlers read it.
 */
export type RpcNext<Adds extends object = NoValues> = NoValues extends Adds
  ? (added?: Adds) => Promise<unknown>
  : (added: Adds) => Promise<unknown>;

/**
 * Middleware around calls. `Needs`: context values it reads, which middleware before it added;
 * `Adds`: the values it adds with `next(added)`. What it returns (or throws) answers the call: the
 * result is validated like a handler's, an RpcError (a declared error too) is sent as it is,
 * anything else thrown is -32603. Calling `next` at most once; not calling it answers without the
 * handler. Write one with `defineMiddleware` so its types are inferred.
 */
export type RpcMiddleware<Needs extends object = NoValues, Adds extends object = NoValues> = (
  call: RpcMiddlewareCall<Needs>,
  next: RpcNext<Adds>,
) => unknown;

/** The context a handler behind these middleware gets: `ContextOf<typeof auth>` is `RpcContext & { user: User }`. */
export type ContextOf<M> = M extends RpcMiddleware<infer Needs, infer Adds> ? RpcContext & Needs & Adds : never;

/**
 * Types a middleware: `defineMiddleware<{ user: User }>()((call, next) => next({ user }))` adds
 * `user` (checked: `next` requires it), and `ContextOf<typeof auth>` is what handlers read. The
 * first type argument is what it adds, the second what it needs from middleware before it.
 */
export function defineMiddleware<Adds extends object = NoValues, Needs extends object = NoValues>(): (
  middleware: RpcMiddleware<Needs, Adds>,
) => RpcMiddleware<Needs, Adds> {
  return (middleware) => middleware;
}

/** Any middleware, whatever it needs and adds (the server's options hold lists of these). */
// biome-ignore lint/suspicious/noExplicitAny: a list mixes middleware of different context types.
export type AnyRpcMiddleware = RpcMiddleware<any, any>;

/** A middleware as a call-pipeline interceptor: the same function, once checked (the seam's `next` takes `added`). */
function toInterceptor(middleware: AnyRpcMiddleware): CallInterceptor {
  if (typeof middleware !== 'function') {
    throw new Error(`createRpcServer: middleware must be functions (call, next) => ..., got ${typeof middleware}`);
  }
  return middleware as CallInterceptor;
}

/**
 * The interceptors of every call (`middleware`), and of each method that has more: `middleware`,
 * then `middlewareFor[Interface]`, then `middlewareFor["Interface.method"]`, the first outermost
 * (only methods with more are in `byMethod`, so most calls find their chain without a lookup).
 * Throws when a key of `middlewareFor` names no registered interface or method.
 */
export function middlewareInterceptors(
  methods: ReadonlyMap<string, MethodEntry>,
  middleware: readonly AnyRpcMiddleware[] | undefined,
  middlewareFor: Readonly<Record<string, readonly AnyRpcMiddleware[]>> | undefined,
): { everyCall: CallInterceptor[]; byMethod: Map<string, CallInterceptor[]> } {
  if (middleware !== undefined && !Array.isArray(middleware)) throw new Error('createRpcServer: middleware must be an array of functions');
  const everyCall = (middleware ?? []).map(toInterceptor);
  const byTarget = new Map<string, CallInterceptor[]>();
  const interfaces = new Set([...methods.keys()].map(interfaceOf));
  for (const [target, list] of Object.entries(middlewareFor ?? {})) {
    if (!interfaces.has(target) && !methods.has(target)) {
      throw new Error(
        `createRpcServer: middlewareFor["${target}"] names no registered interface or "Interface.method" (interfaces: ${[...interfaces].join(', ') || 'none'})`,
      );
    }
    if (!Array.isArray(list)) throw new Error(`createRpcServer: middlewareFor["${target}"] must be an array of functions`);
    byTarget.set(target, list.map(toInterceptor));
  }
  const byMethod = new Map<string, CallInterceptor[]>();
  for (const name of methods.keys()) {
    const own = [...(byTarget.get(interfaceOf(name)) ?? []), ...(byTarget.get(name) ?? [])];
    if (own.length > 0) byMethod.set(name, [...everyCall, ...own]);
  }
  return { everyCall, byMethod };
}

/** The interface part of `"<Interface>.<method>"` (an imported interface's name holds a dot itself). */
function interfaceOf(methodName: string): string {
  return methodName.slice(0, methodName.lastIndexOf('.'));
}
