/**
 * Type tests (checked by `tsc -p playground`, test/playground/typecheck.test.ts) of the TanStack
 * Query helpers: keys, data and the declared errors as TanStack's error type, as
 * `@tanstack/query-core` (which every framework adapter builds on) infers them.
 */
import { type DataTag, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { type interfaceQueryKey, queryHelpers } from 'unplugin-idl-rpc/runtime/adapters/tanstack';
import { HttpTransport, type RpcError } from 'unplugin-idl-rpc/runtime/client';
import {
  type AddToCartRequest,
  type Cart,
  type CartEmptyError,
  CartServiceClient,
  type CartNotFoundError,
  CatalogServiceClient,
  type CheckoutResponse,
  type CreateOrderRequest,
  type InvalidAddressError,
  OrderServiceClient,
  type OutOfStockError,
  type PaymentFailedError,
  type Product,
} from '../../playground/checkout.idl';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_: T) => undefined;

const transport = new HttpTransport('/rpc');
const catalogClient = new CatalogServiceClient(transport);
const catalog = queryHelpers(catalogClient);
const carts = queryHelpers(new CartServiceClient(transport));
const orders = queryHelpers(new OrderServiceClient(transport));
const queryClient = new QueryClient();

// Keys: [interface, method, params]; the method name is a literal type.
const productOptions = catalog.getProduct.queryOptions('kettle');
assertType<Equal<typeof productOptions.queryKey, DataTag<[string, 'getProduct', [productId: string]], Product | null, RpcError>>>(true);
assertType<Equal<ReturnType<typeof interfaceQueryKey>, [string]>>(true);
assertType<Equal<ReturnType<typeof catalog.getProduct.queryKey>, [string, 'getProduct', [productId: string]] | [string, 'getProduct']>>(
  true,
);
// @ts-expect-error getProduct takes a string
catalog.getProduct.queryOptions(42);
// @ts-expect-error getProduct takes one parameter
catalog.getProduct.queryOptions();
// @ts-expect-error CatalogService has no such method
catalog.createOrder;

export async function examples(request: CreateOrderRequest, add: AddToCartRequest) {
  // fetchQuery and getQueryData know the data type from the options and the tagged key.
  const product = await queryClient.fetchQuery(productOptions);
  assertType<Equal<typeof product, Product | null>>(true);
  const cached = queryClient.getQueryData(productOptions.queryKey);
  assertType<Equal<typeof cached, Product | null | undefined>>(true);
  // The declared errors are TanStack's error type: here, none (any RpcError).
  const state = queryClient.getQueryState(productOptions.queryKey);
  assertType<Equal<NonNullable<typeof state>['error'], RpcError | null>>(true);
  const observer = new QueryObserver(queryClient, catalog.listProducts.queryOptions());
  assertType<Equal<ReturnType<typeof observer.getCurrentResult>['error'], RpcError | null>>(true);
  assertType<Equal<ReturnType<typeof observer.getCurrentResult>['data'], Product[] | undefined>>(true);

  // Mutations: the variables are the method's one parameter; the error is its declared errors or an RpcError.
  const placing = new MutationObserver(queryClient, orders.createOrder.mutationOptions());
  const placed = await placing.mutate(request);
  assertType<Equal<typeof placed, CheckoutResponse>>(true);
  assertType<
    Equal<
      ReturnType<typeof placing.getCurrentResult>['error'],
      CartNotFoundError | CartEmptyError | PaymentFailedError | OutOfStockError | InvalidAddressError | RpcError | null
    >
  >(true);
  const cart: Cart = await new MutationObserver(queryClient, carts.addToCart.mutationOptions()).mutate(add);
  // @ts-expect-error addToCart takes an AddToCartRequest
  await new MutationObserver(queryClient, carts.addToCart.mutationOptions()).mutate('p1');
  // A method without parameters takes no variables.
  await new MutationObserver(queryClient, catalog.listProducts.mutationOptions()).mutate();
  return cart;
}
