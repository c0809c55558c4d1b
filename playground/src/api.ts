import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
import { CartServiceClient, CatalogServiceClient, OrderServiceClient } from '../checkout.idl';

/**
 * The typed clients of checkout.idl, sharing one transport. The dev server answers on `/rpc`;
 * a page deployed elsewhere sets `VITE_RPC_URL` at build time.
 */
const rpcUrl = new URL(import.meta.env.VITE_RPC_URL ?? '/rpc', window.location.href).href;
const transport = new HttpTransport(rpcUrl);

export const catalogService = new CatalogServiceClient(transport);
export const cartService = new CartServiceClient(transport);
export const orderService = new OrderServiceClient(transport);
