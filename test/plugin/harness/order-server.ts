/**
 * The server the bundler and host fixture apps call: the fixture app's checkout IDL served by the
 * runtime with a known order (`order-1`) and CartNotFound for every new order.
 */
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { compileIdl, toIdlJson } from '../../../src/idl/index.js';
import { createRpcServer, listen, RpcError } from '../../../runtime/index.js';

/** Starts the fixture's order server on a free loopback port, for the `.idl` of the app in `appDir`. */
export async function startFixtureOrderServer(appDir: string): Promise<http.Server> {
  const idl = toIdlJson(compileIdl(await readFile(path.join(appDir, 'checkout.idl'), 'utf8'), 'checkout.idl'));
  const server = createRpcServer({
    idl,
    handlers: {
      OrderService: {
        getOrder: (orderId: string) =>
          orderId === 'order-1'
            ? {
                orderId,
                cart: { cartId: 'cart-1', items: [{ productId: 'p-1', quantity: 2, price: 21.25 }], subtotal: 42.5 },
                shippingAddress: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'US' },
                paymentMethod: 'paypal',
                status: 'paid',
                total: 42.5,
                createdAt: 1_700_000_000,
              }
            : null,
        createOrder: (request: { cartId: string }) => {
          throw new RpcError(1001, `CartNotFound: no cart ${request.cartId}`);
        },
        async *watchOrder() {},
      },
    },
  });
  return listen(server, { port: 0, host: '127.0.0.1' });
}
