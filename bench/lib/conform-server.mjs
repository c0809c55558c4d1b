/**
 * The checkout server the conform bench calls, in a process of its own (so the bench process's CPU
 * time is the caller's alone): built from dist/, on a free port it prints as `port <n>`.
 */
import { readFileSync } from 'node:fs';
import { createRpcServer, listen } from '../../dist/runtime/index.js';
import { compileIdl } from '../../dist/src/idl/compile.js';
import { toIdlJson } from '../../dist/src/idl/json.js';

const idl = toIdlJson(compileIdl(readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8'), 'checkout.idl'));
const product = { productId: 'p1', name: 'Shoe', description: 'A shoe', price: 25.5, stock: 3 };
const handlers = {
  CatalogService: { listProducts: () => [product], getProduct: (id) => (id === 'p1' ? product : null) },
  CartService: { addToCart: () => ({ cartId: 'c1', items: [], subtotal: 0 }), getCart: () => null, clearCart: () => false },
  OrderService: { createOrder: () => ({ orderId: 'o1' }), getOrder: () => null, async *watchOrder() {} },
};
const server = await listen(createRpcServer({ idl, handlers }), { port: 0, host: '127.0.0.1', shutdownSignals: ['SIGTERM'] });
console.log(`port ${server.address().port}`);
