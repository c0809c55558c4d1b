/**
 * TanStack Query helpers for generated clients (docs/runtime.md, "TanStack Query"): per method,
 * query and mutation options that `@tanstack/query-core` and every framework adapter take (React,
 * Vue, Solid, Svelte, Angular), with the method's declared errors as the query's error type.
 *
 * Its own entry (`unplugin-idl-rpc/runtime/adapters/tanstack`): the runtime and the `.idl.d.ts`
 * never import TanStack, and bundles that do not use these helpers do not carry them. It imports
 * TanStack's types only (nothing at run time), so it works with whichever copy the app has.
 */
import type { DataTag, MutationObserverOptions, QueryFunctionContext, QueryKey, QueryObserverOptions } from '@tanstack/query-core';
import type { CallOptions, RpcError, RpcPromise } from '../client.js';

/** A client method as generated: IDL params, then `options?: CallOptions`. */
// biome-ignore lint/suspicious/noExplicitAny: any parameter list is a method's; the helpers' own types are exact
type ClientMethod = (...args: any[]) => RpcPromise<unknown, object>;

/** The IDL parameters of a client method (its parameters without the trailing call options). */
export type ParamsOf<M extends ClientMethod> = Required<Parameters<M>> extends [...infer Params, CallOptions] ? Params : never;

/** The result of a client method. */
export type ResultOf<M extends ClientMethod> = Awaited<ReturnType<M>>;

/** The error a call of a client method fails with: one of its declared errors, or any `RpcError`. */
export type ErrorOf<M extends ClientMethod> =
  ReturnType<M> extends RpcPromise<unknown, infer Errors> ? Errors[keyof Errors] | RpcError : RpcError;

/** What a mutation takes: nothing, the one parameter, or the parameters as a tuple. */
// biome-ignore lint/suspicious/noConfusingVoidType: TanStack's own "no variables" (`mutate()` without an argument) is `void`
export type VariablesOf<M extends ClientMethod> = ParamsOf<M> extends [] ? void : ParamsOf<M> extends [infer Only] ? Only : ParamsOf<M>;

/** The query key of one call: `[interface, method, params]`. */
export type MethodQueryKey<Interface extends string, Method extends string, Params extends unknown[]> = [Interface, Method, Params];

/** Query options of one call: `queryKey` (tagged with its data and error types) and `queryFn`. */
export type RpcQueryOptions<Result, Error, Key extends QueryKey> = QueryObserverOptions<Result, Error, Result, Result, Key> & {
  queryKey: DataTag<Key, Result, Error>;
  queryFn: (context: QueryFunctionContext<Key>) => Promise<Result>;
};

/** Mutation options of a method: `mutationKey` `[interface, method]` and `mutationFn`. */
export type RpcMutationOptions<Result, Error, Variables, Key extends QueryKey> = MutationObserverOptions<Result, Error, Variables> & {
  mutationKey: Key;
  mutationFn: (variables: Variables) => Promise<Result>;
};

/** The helpers of one method. */
export interface MethodHelpers<Interface extends string, Method extends string, M extends ClientMethod> {
  /** `[interface, method, params]`; with no params, `[interface, method]` (every call of the method). */
  queryKey(...params: ParamsOf<M> | []): MethodQueryKey<Interface, Method, ParamsOf<M>> | [Interface, Method];
  /** For `useQuery`, `fetchQuery`, ...: calls the method with TanStack's abort signal. */
  queryOptions(...params: ParamsOf<M>): RpcQueryOptions<ResultOf<M>, ErrorOf<M>, MethodQueryKey<Interface, Method, ParamsOf<M>>>;
  /** For `useMutation`: the variables are the one parameter (or the parameters as a tuple). */
  mutationOptions(): RpcMutationOptions<ResultOf<M>, ErrorOf<M>, VariablesOf<M>, [Interface, Method]>;
}

/**
 * The helpers of every method of a client. (The interface name in keys is typed `string`: an
 * instance's type does not know its class's statics.)
 */
export type QueryHelpers<C> = {
  [Method in keyof C as C[Method] extends ClientMethod ? Method : never]: C[Method] extends ClientMethod
    ? MethodHelpers<string, Method & string, C[Method]>
    : never;
};

function interfaceNameOf(client: object): string {
  const name = (client.constructor as { interfaceName?: unknown }).interfaceName;
  if (typeof name !== 'string') throw new TypeError('queryHelpers: expected a generated client (its class has a static interfaceName)');
  return name;
}

/**
 * The TanStack Query helpers of a generated client, one per method:
 *
 *     const catalog = queryHelpers(new CatalogServiceClient(transport));
 *     useQuery(catalog.getProduct.queryOptions('kettle'));          // key ['CatalogService', 'getProduct', ['kettle']]
 *     useMutation(orders.createOrder.mutationOptions());             // error: CartEmptyError | ... | RpcError
 *     queryClient.invalidateQueries({ queryKey: interfaceQueryKey(catalogClient) });
 */
export function queryHelpers<C extends object>(client: C): QueryHelpers<C> {
  const iface = interfaceNameOf(client);
  const helpers: Record<string, unknown> = {};
  for (const method of Object.getOwnPropertyNames(Object.getPrototypeOf(client))) {
    const call = (client as Record<string, unknown>)[method];
    if (method === 'constructor' || typeof call !== 'function') continue;
    const invoke = (params: unknown[], options?: CallOptions) => call.apply(client, [...params, options]) as Promise<unknown>;
    // Generated methods declare the IDL parameters and then `options`, so the count is known.
    const parameterCount = call.length - 1;
    helpers[method] = {
      queryKey: (...params: unknown[]) => (params.length === 0 && parameterCount > 0 ? [iface, method] : [iface, method, params]),
      queryOptions: (...params: unknown[]) => ({
        queryKey: [iface, method, params],
        queryFn: ({ signal }: { signal: AbortSignal }) => invoke(params, { signal }),
      }),
      mutationOptions: () => ({
        mutationKey: [iface, method],
        mutationFn: (variables: unknown) =>
          invoke(parameterCount === 0 ? [] : parameterCount === 1 ? [variables] : (variables as unknown[])),
      }),
    };
  }
  return helpers as QueryHelpers<C>;
}

/** `[interface]`: the key prefix of every query of a client's interface (for `invalidateQueries`). */
export function interfaceQueryKey(client: object): [string] {
  return [interfaceNameOf(client)];
}
