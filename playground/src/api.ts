import { BatchingTransport, retryPolicy } from 'unplugin-idl-rpc/runtime/client';
import { CartServiceClient, CatalogServiceClient, OrderServiceClient } from '../checkout.idl';

/**
 * The typed clients of checkout.idl, sharing one transport. The dev server answers on `/rpc`;
 * a page deployed elsewhere sets `VITE_RPC_URL` at build time.
 *
 * The transport batches: the calls the page makes together (the catalog and the cart on load, the
 * cart and the stock after an order) go to the server as one JSON-RPC batch request. Reads are
 * retried after a network failure; a call that changes something (adding to the cart, placing an
 * order) is not, since it may have run already.
 */
const rpcUrl = new URL(import.meta.env.VITE_RPC_URL ?? '/rpc', window.location.href).href;
const transport = new BatchingTransport(rpcUrl, {
  retry: retryPolicy({
    attempts: 3,
    idempotent: ['CatalogService.listProducts', 'CatalogService.getProduct', 'CartService.getCart', 'OrderService.getOrder'],
  }),
});

export const catalogService = new CatalogServiceClient(transport);
export const cartService = new CartServiceClient(transport);
export const orderService = new OrderServiceClient(transport);
