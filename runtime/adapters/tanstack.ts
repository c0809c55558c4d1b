/**
 * TanStack Query helpers for generated clients (docs/runtime.md, "TanStack Query"): per method,
 * query and mutation options that `@tanstack/query-core` and every framework adapter take (React,
 * Vue, Solid, Svelte, Angular), with the method's declared errors as the query's error type; per
 * stream method, `streamedQuery` options whose data is the items received so far.
 *
 * Its own entry (`unplugin-idl-rpc/runtime/adapters/tanstack`): the runtime and the `.idl.d.ts`
 * never import TanStack, and bundles that do not use these helpers do not carry them. It imports
 * TanStack's types only (nothing at run time), so it works with whichever copy the app has.
 */
import type { DataTag, MutationObserverOptions, QueryFunctionContext, QueryKey, QueryObserverOptions } from '@tanstack/query-core';
import type { CallOptions, RpcError, RpcPromise, RpcStream, StreamOptions } from '../client.js';

/** A client method as generated: IDL params, then `options?: CallOptions`. */
// biome-ignore lint/suspicious/noExplicitAny: any parameter list is a method's; the helpers' own types are exact
type ClientMethod = (...args: any[]) => RpcPromise<unknown, object>;

/** A stream method as generated: IDL params, then `options?: StreamOptions`; returns an `RpcStream`. */
// biome-ignore lint/suspicious/noExplicitAny: any parameter list is a method's; the helpers' own types are exact
type StreamClientMethod = (...args: any[]) => RpcStream<unknown, object>;

/** The IDL parameters of a stream method (its parameters without the trailing stream options). */
export type StreamParamsOf<M extends StreamClientMethod> =
  Required<Parameters<M>> extends [...infer Params, StreamOptions] ? Params : never;

/** The item type of a stream method. */
export type ItemOf<M extends StreamClientMethod> = ReturnType<M> extends RpcStream<infer Item, object> ? Item : never;

/** An error class's instances; anything else as it is (generated streams name their errors' classes, `typeof NotFoundError`). */
// biome-ignore lint/suspicious/noExplicitAny: any constructor's parameters
type InstanceOf<T> = T extends abstract new (...args: any[]) => infer Instance ? Instance : T;

/** The error a stream fails with: one of its method's declared errors, or any `RpcError`. */
export type StreamErrorOf<M extends StreamClientMethod> =
  ReturnType<M> extends RpcStream<unknown, infer Errors> ? InstanceOf<Errors[keyof Errors]> | RpcError : RpcError;

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

/** How a refetch of a streamed query treats the items it has (as TanStack's own `streamedQuery`). */
export type RefetchMode = 'reset' | 'append' | 'replace';

/** The helpers of one stream method. */
export interface StreamMethodHelpers<Interface extends string, Method extends string, M extends StreamClientMethod> {
  /** `[interface, method, params]`; with no params, `[interface, method]` (every call of the method). */
  queryKey(...params: StreamParamsOf<M> | []): MethodQueryKey<Interface, Method, StreamParamsOf<M>> | [Interface, Method];
  /**
   * For `useQuery`, `fetchQuery`, ...: the query's data is the items received so far, in the cache
   * as each arrives; the query is fetching until the stream ends. `refetchMode` (default `reset`).
   */
  streamedQuery(
    ...params: StreamParamsOf<M>
  ): RpcQueryOptions<ItemOf<M>[], StreamErrorOf<M>, MethodQueryKey<Interface, Method, StreamParamsOf<M>>>;
}

/**
 * The helpers of every method of a client: a stream method's are `queryKey` and `streamedQuery`.
 * (The interface name in keys is typed `string`: an instance's type does not know its class's statics.)
 */
export type QueryHelpers<C> = {
  [Method in keyof C as C[Method] extends ClientMethod | StreamClientMethod ? Method : never]: C[Method] extends ClientMethod
    ? MethodHelpers<string, Method & string, C[Method]>
    : C[Method] extends StreamClientMethod
      ? StreamMethodHelpers<string, Method & string, C[Method]>
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
      streamedQuery: (...params: unknown[]) =>
        streamedQuery({
          queryKey: [iface, method, params],
          stream: (signal) => call.apply(client, [...params, { signal }]) as RpcStream<unknown>,
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

/** What {@link streamedQuery} takes. */
export interface StreamedQueryOptions<Item, Errors extends object, Key extends QueryKey> {
  queryKey: Key;
  /** Calls the stream method with TanStack's abort signal (a query no one observes any more closes its stream). */
  stream: (signal: AbortSignal) => RpcStream<Item, Errors>;
  /**
   * A refetch: `reset` (default) empties the data and makes the query pending again; `append` adds
   * the new stream's items to the ones there; `replace` keeps the old items until the new stream
   * ends, then puts its items in their place.
   */
  refetchMode?: RefetchMode;
}

/**
 * Query options whose data is a stream's items so far, like TanStack's experimental
 * `streamedQuery` (which this does without importing TanStack): each item is put in the cache as it
 * arrives (`setQueryData` on the query's client), the query is `success` from the first item and
 * fetching until the stream ends; the declared errors are the query's error type. Stream methods'
 * helpers of {@link queryHelpers} call it with their key:
 *
 *     useQuery(orders.watchOrder.streamedQuery(orderId)); // data: Order[], the statuses so far
 */
export function streamedQuery<Item, Errors extends object, Key extends QueryKey>(
  options: StreamedQueryOptions<Item, Errors, Key>,
): RpcQueryOptions<Item[], InstanceOf<Errors[keyof Errors]> | RpcError, Key> {
  const { queryKey, stream, refetchMode = 'reset' } = options;
  return {
    queryKey: queryKey as DataTag<Key, Item[], InstanceOf<Errors[keyof Errors]> | RpcError>,
    queryFn: async ({ client, signal }) => {
      const query = client.getQueryCache().find({ queryKey, exact: true });
      const refetch = query?.isFetched() ?? false;
      if (refetch && refetchMode === 'reset') query!.setState({ data: undefined, dataUpdatedAt: 0, status: 'pending', error: null });
      let replacement: Item[] = [];
      for await (const item of stream(signal)) {
        if (signal.aborted) break;
        if (refetch && refetchMode === 'replace') replacement = [...replacement, item];
        else client.setQueryData<Item[]>(queryKey, (items = []) => [...items, item]);
      }
      if (refetch && refetchMode === 'replace' && !signal.aborted) client.setQueryData<Item[]>(queryKey, replacement);
      return client.getQueryData<Item[]>(queryKey) ?? [];
    },
  };
}
