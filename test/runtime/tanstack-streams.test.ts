/**
 * `streamedQuery` (runtime/adapters/tanstack.ts) with `@tanstack/query-core`'s own QueryClient, over
 * a client shaped as generated for a stream method and the stand-in stream server: items in the
 * cache as they arrive, declared errors as the query's error, cancelling closes the connection.
 */
import { type DataTag, QueryClient, QueryObserver } from '@tanstack/query-core';
import { describe, expect, it, vi } from 'vitest';
import { queryHelpers, streamedQuery } from '../../runtime/adapters/tanstack.js';
import {
  callMethod,
  DeclaredError,
  HttpTransport,
  type CallOptions,
  type RpcError,
  type RpcPromise,
  type RpcStream,
  type StreamOptions,
  streamMethod,
  type Transport,
} from '../../runtime/client.js';
import { end, failure, item, SSE_HEADERS, sseServer } from './sse-stand-in.js';

interface Order {
  orderId: string;
  status: string;
}

class OrderNotFoundError extends DeclaredError {
  static readonly code = 1101;
  static readonly errorName = 'OrderNotFound';
  static readonly defaultMessage = 'no such order';
}

/** What the generator writes for `watchOrder(orderId string) stream Order raises(OrderNotFound)` and a plain method. */
class OrderServiceClient {
  static readonly interfaceName = 'OrderService';
  constructor(private readonly transport: Transport) {}
  watchOrder(orderId: string, options?: StreamOptions): RpcStream<Order, { OrderNotFound: typeof OrderNotFoundError }> {
    return streamMethod(this.transport, 'OrderService.watchOrder', [orderId], [OrderNotFoundError], options) as RpcStream<
      Order,
      { OrderNotFound: typeof OrderNotFoundError }
    >;
  }
  getOrder(orderId: string, options?: CallOptions): RpcPromise<Order> {
    return callMethod(this.transport, 'OrderService.getOrder', [orderId], [], options) as RpcPromise<Order>;
  }
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_: T) => undefined;

const order = (status: string): Order => ({ orderId: 'o1', status });

describe('streamedQuery', () => {
  it('puts each item in the cache as it arrives; the query ends with all of them', async () => {
    let more!: () => void;
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(item(request.body.id, '1', order('pending')));
      more = () => response.end(item(request.body.id, '2', order('paid')) + end(request.body.id));
    });
    const orders = queryHelpers(new OrderServiceClient(new HttpTransport(url)));
    const options = orders.watchOrder.streamedQuery('o1');
    assertType<Equal<typeof options.queryKey, DataTag<[string, 'watchOrder', [orderId: string]], Order[], OrderNotFoundError | RpcError>>>(
      true,
    );
    expect(options.queryKey).toStrictEqual(['OrderService', 'watchOrder', ['o1']]);
    expect(orders.watchOrder.queryKey()).toStrictEqual(['OrderService', 'watchOrder']);
    // @ts-expect-error a stream method has no queryOptions (its result is a stream, not one value)
    orders.watchOrder.queryOptions;
    orders.getOrder.queryOptions('o1');

    const queryClient = new QueryClient();
    const done = queryClient.fetchQuery(options);
    await vi.waitFor(() => expect(queryClient.getQueryData(options.queryKey)).toStrictEqual([order('pending')]));
    expect(queryClient.getQueryState(options.queryKey)?.fetchStatus).toBe('fetching');
    more();
    const data = await done;
    assertType<Equal<typeof data, Order[]>>(true);
    expect(data).toStrictEqual([order('pending'), order('paid')]);
    expect(seen[0].body).toMatchObject({ method: 'OrderService.watchOrder', params: ['o1'] });
  });

  it("fails the query with the method's declared error", async () => {
    const { url } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(item(request.body.id, '1', order('pending')) + failure(request.body.id, { code: 1101, message: 'OrderNotFound: o1' }));
    });
    const orders = queryHelpers(new OrderServiceClient(new HttpTransport(url)));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(queryClient, orders.watchOrder.streamedQuery('o1'));
    assertType<Equal<ReturnType<typeof observer.getCurrentResult>['error'], OrderNotFoundError | RpcError | null>>(true);
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    expect(observer.getCurrentResult().error).toBeInstanceOf(OrderNotFoundError);
    expect(observer.getCurrentResult().data).toStrictEqual([order('pending')]);
    unsubscribe();
  });

  it('closes the connection when the last observer goes away', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(item(request.body.id, '1', order('pending'))); // and never ends
    });
    const orders = queryHelpers(new OrderServiceClient(new HttpTransport(url)));
    const queryClient = new QueryClient();
    const observer = new QueryObserver(queryClient, orders.watchOrder.streamedQuery('o1'));
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toStrictEqual([order('pending')]));
    unsubscribe();
    await seen[0].closed;
  });

  it('refetchMode: reset starts the data again, append keeps it', async () => {
    const { url } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(item(request.body.id, '1', order(`run ${index}`)) + end(request.body.id));
    });
    const client = new OrderServiceClient(new HttpTransport(url));
    const queryClient = new QueryClient();
    const reset = streamedQuery({ queryKey: ['reset'], stream: (signal) => client.watchOrder('o1', { signal }) });
    await queryClient.fetchQuery(reset);
    expect(await queryClient.refetchQueries({ queryKey: ['reset'] }).then(() => queryClient.getQueryData(reset.queryKey))).toStrictEqual([
      order('run 1'),
    ]);
    const append = streamedQuery({ queryKey: ['append'], stream: (signal) => client.watchOrder('o1', { signal }), refetchMode: 'append' });
    await queryClient.fetchQuery(append);
    await queryClient.refetchQueries({ queryKey: ['append'] });
    expect(queryClient.getQueryData(append.queryKey)).toStrictEqual([order('run 2'), order('run 3')]);
  });
});
