/**
 * A watchOrder stream across a restart of the standalone server (PGlite in a data folder): the
 * generated client is reading an order's updates when the server stops (SIGTERM: it sends the
 * reconnect message; SIGKILL: the connection just breaks) and starts again on the same port and
 * data; the client reconnects with Last-Event-ID, the restarted server resumes the order's
 * fulfilment from the database, and the loop goes on to delivered, every state at most once, in order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../playground/checkout.idl';
import { freePort, playgroundModules, type CheckoutIdl, type PlaygroundModules, type RuntimeClient } from './harness.js';
import { buildServer, rpc, startServer, type ServerProcess } from './server-process.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
/** Long enough that the server is stopped before the order is paid, in most runs; the test holds either way. */
const stepMs = 1500;
let server: { mainJs: string; remove(): Promise<void> };
let modules: PlaygroundModules;
let idl: CheckoutIdl;
let runtime: RuntimeClient;
const running: ServerProcess[] = [];
const folders: string[] = [];

beforeAll(async () => {
  server = await buildServer();
  modules = await playgroundModules();
  idl = await modules.load<CheckoutIdl>('/checkout.idl');
  runtime = await modules.load<RuntimeClient>('unplugin-idl-rpc/runtime/client');
});

afterAll(async () => {
  await Promise.all(running.map((process) => process.kill()));
  await modules?.close();
  await server?.remove();
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('watchOrder across a server restart', () => {
  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'the client resumes after %s and a restart, and reads on to delivered',
    { timeout: 90_000 },
    async (signal) => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'playground-watch-restart-'));
      folders.push(dataDir);
      const port = await freePort();
      const env = { PLAYGROUND_DATA_DIR: dataDir, PLAYGROUND_FULFILMENT_STEP_MS: String(stepMs) };
      const first = await startServer(server.mainJs, env, port);
      running.push(first);

      const cart = await rpc<{ cartId: string }>(first.url, 'CartService.addToCart', { productId: 'mug', quantity: 1 });
      const placed = await rpc<{ orderId: string }>(first.url, 'OrderService.createOrder', {
        cartId: cart.result!.cartId,
        shippingAddress: address,
        paymentMethod: 'paypal',
      });
      const orderId = placed.result!.orderId;

      // Reconnections wait 1 s (the server's retry), then twice as long each time: room for a restart.
      const orders = new idl.OrderServiceClient(new runtime.HttpTransport(first.url, { reconnect: { attempts: 8 } }));
      const stream = orders.watchOrder(orderId);
      const seen: [string | undefined, Order['status']][] = [];
      let afterRestart = 0;
      let second: ServerProcess | undefined;
      for await (const order of stream) {
        seen.push([stream.lastEventId, order.status]);
        if (second !== undefined) afterRestart++;
        if (seen.length === 1) {
          await (signal === 'SIGTERM' ? first.stop() : first.kill());
          second = await startServer(server.mainJs, env, port);
          running.push(second);
        }
      }

      expect(seen.at(-1)).toEqual(['4', 'delivered']);
      expect(afterRestart).toBeGreaterThan(0);
      const ids = seen.map(([id]) => id);
      expect(ids).toEqual([...new Set(ids)].sort());
      const ordinals = { pending: '1', paid: '2', shipped: '3', delivered: '4', cancelled: '5' };
      for (const [id, status] of seen) expect(id).toBe(ordinals[status]);
      await second?.stop();
    },
  );
});
