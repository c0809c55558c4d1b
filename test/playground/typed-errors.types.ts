/**
 * Type tests (checked by `tsc -p playground`, test/playground/typecheck.test.ts): a client method's
 * declared errors are part of its type, and `settle` narrows its outcome exhaustively. Each
 * `@ts-expect-error` is a misuse that must not compile.
 */
import { type RpcError, settle, type RpcPromise } from 'unplugin-idl-rpc/runtime/client';
import type {
  CartEmptyError,
  CartNotFoundError,
  CheckoutResponse,
  CreateOrderRequest,
  InvalidAddressError,
  OrderServiceClient,
  OutOfStockError,
  PaymentFailedError,
  Product,
  CatalogServiceClient,
} from '../../playground/checkout.idl';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_: T) => undefined;

export async function describeOrder(orders: OrderServiceClient, request: CreateOrderRequest): Promise<string> {
  // The throwing form stays: a plain promise of the result.
  const placed: CheckoutResponse = await orders.createOrder(request);
  assertType<Equal<ReturnType<OrderServiceClient['createOrder']> extends Promise<infer R> ? R : never, CheckoutResponse>>(true);

  const outcome = await settle(orders.createOrder(request));
  if (outcome.ok) return `${outcome.value.orderId} ${placed.orderId}`;
  switch (outcome.kind) {
    case 'CartNotFound':
      assertType<Equal<typeof outcome.error, CartNotFoundError>>(true);
      return 'no cart';
    case 'CartEmpty':
      assertType<Equal<typeof outcome.error, CartEmptyError>>(true);
      return outcome.error.detail;
    case 'PaymentFailed':
      assertType<Equal<typeof outcome.error, PaymentFailedError>>(true);
      return 'card declined';
    case 'OutOfStock':
      assertType<Equal<typeof outcome.error, OutOfStockError>>(true);
      return 'sold out';
    case 'InvalidAddress':
      assertType<Equal<typeof outcome.error, InvalidAddressError>>(true);
      return 'address';
    case 'rpc-error':
      assertType<Equal<typeof outcome.error, RpcError>>(true);
      return outcome.error.message;
    default: {
      // Exhaustive: every declared error has a case, so nothing is left.
      const nothingLeft: never = outcome;
      return nothingLeft;
    }
  }
}

export async function productName(catalog: CatalogServiceClient): Promise<string> {
  // A method without declared errors: only the result and 'rpc-error'.
  const outcome = await settle(catalog.getProduct('kettle'));
  assertType<Equal<typeof outcome.kind, undefined | 'rpc-error'>>(true);
  if (!outcome.ok) {
    switch (outcome.kind) {
      // @ts-expect-error getProduct declares no CartEmpty: a case for it does not compile
      case 'CartEmpty':
        return 'impossible';
      default:
        return outcome.error.message;
    }
  }
  const product: Product | null = outcome.value;
  return product?.name ?? 'none';
}

export async function missingCase(orders: OrderServiceClient, request: CreateOrderRequest): Promise<string> {
  const outcome = await settle(orders.createOrder(request));
  if (outcome.ok) return 'ok';
  switch (outcome.kind) {
    case 'CartNotFound':
    case 'CartEmpty':
    case 'PaymentFailed':
    case 'OutOfStock':
    case 'rpc-error':
      return outcome.kind;
    default: {
      // @ts-expect-error InvalidAddress has no case: the switch is not exhaustive
      const nothingLeft: never = outcome;
      return nothingLeft;
    }
  }
}

// The declared errors are in the method's type.
assertType<
  Equal<
    ReturnType<OrderServiceClient['createOrder']>,
    RpcPromise<
      CheckoutResponse,
      {
        CartNotFound: CartNotFoundError;
        CartEmpty: CartEmptyError;
        PaymentFailed: PaymentFailedError;
        OutOfStock: OutOfStockError;
        InvalidAddress: InvalidAddressError;
      }
    >
  >
>(true);
// A plain promise settles to its value or an RpcError.
export const plain = settle(Promise.resolve(1)).then((outcome) => (outcome.ok ? outcome.value + 1 : outcome.error.code));
