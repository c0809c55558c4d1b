/**
 * The checkout server against a hostile client: `addToCart` with a 1 MB cartId, 200 times,
 * and a flood of new carts past the limit of carts (PLAYGROUND_MAX_CARTS). Every call is answered
 * (an invalid-params error for the ids; a cart, or an invalid-params error once the carts are all
 * taken, for the flood), and the server's resident memory stays flat: before the
 * limits, every 1 MB id was kept, and a loop of them killed Node with heap exhaustion.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer, residentMiB, rpc, startServer, type RpcAnswer, type ServerProcess } from './server-process.js';

let server: { mainJs: string; remove(): Promise<void> };
let process_: ServerProcess;

beforeAll(async () => {
  server = await buildServer();
  // Room for 1000 carts, so that the flood below runs into the limit; the flood comes from one
  // address, so its budget of new carts is raised past it.
  process_ = await startServer(server.mainJs, {
    PLAYGROUND_DATA_DIR: ':memory:',
    PLAYGROUND_MAX_CARTS: '1000',
    PLAYGROUND_MAX_NEW_CARTS_PER_CLIENT: '1000000',
  });
}, 120_000);

afterAll(async () => {
  await process_?.stop();
  await server?.remove();
});

/** Runs `count` calls, `concurrency` at a time; returns every answer. */
async function flood<T>(count: number, concurrency: number, call: (index: number) => Promise<RpcAnswer<T>>): Promise<RpcAnswer<T>[]> {
  const answers: RpcAnswer<T>[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) answers.push(await call(next++));
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return answers;
}

it('answers 1 MB ids and a flood of new carts with bounded memory', async () => {
  const { url } = process_;
  const pid = process_.child.pid!;
  // Warm up: the first calls of each kind grow the heap and PGlite's caches once.
  await flood(200, 8, () => rpc(url, 'CartService.addToCart', { productId: 'mug', quantity: 1 }));
  // Random text: a database would compress a repeated letter to almost nothing.
  const hugeId = randomBytes(750_000).toString('base64');
  await flood(20, 4, () => rpc(url, 'CartService.addToCart', { cartId: hugeId, productId: 'mug', quantity: 1 }));
  const before = residentMiB(pid);

  const huge = await flood(200, 4, (i) =>
    rpc(url, 'CartService.addToCart', { cartId: `${i}${hugeId}`.slice(0, 1_000_000), productId: 'mug', quantity: 1 }),
  );
  expect(huge).toHaveLength(200);
  for (const answer of huge) {
    expect(answer.error).toMatchObject({ code: -32602, message: 'Invalid params: params[0].cartId: must be at most 64 characters' });
  }

  const carts = await flood(2000, 16, () => rpc<{ cartId: string }>(url, 'CartService.addToCart', { productId: 'filters', quantity: 1 }));
  expect(carts).toHaveLength(2000);
  // 200 carts of the warm-up, 800 of the flood; the rest is refused.
  expect(carts.filter((answer) => answer.result?.cartId)).toHaveLength(800);
  const refused = carts.filter((answer) => answer.error);
  expect(refused).toHaveLength(1200);
  expect(refused[0].error).toMatchObject({
    code: -32602,
    message: 'Invalid params: params[0].cartId: no room for another cart (at most 1000); try again later',
  });

  const after = residentMiB(pid);
  // 200 ids of 1 MB kept would be 200 MB (400 MB as UTF-16 strings); 2000 small carts are a few hundred kB.
  expect(after - before).toBeLessThan(100);
}, 120_000);
