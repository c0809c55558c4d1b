/**
 * The checkout handlers every server of the server suite runs: the playground's reference service
 * (playground/service), bundled from TypeScript with esbuild. One implementation for all servers
 * keeps the comparison about the RPC layer, not about the business logic.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchCatalog, repoRoot } from './checkout.mjs';
import { cacheDir, importTypeScript } from './load-ts.mjs';
import { importGeneratedCheckout } from './ours.mjs';

// Every addToCart without a cartId creates a cart: ~100k carts a run. Starting a fresh store past
// this many adds keeps memory (and GC pauses) flat, for every server alike, and under the store's
// limit of 10,000 carts.
const maxCartAdds = 9_000;

/**
 * Returns `{ handlers, source }`. The service's `import ... from '../checkout.idl'` is pointed at
 * the same generated module our server uses, so there is one copy of the runtime in the process.
 */
export async function loadCheckoutHandlers() {
  const { file: generatedFile } = await importGeneratedCheckout();
  const service = path.join(repoRoot, 'playground', 'service');
  const entry = path.join(cacheDir, 'playground-service.entry.mjs');
  writeFileSync(
    entry,
    `export { createCheckoutService } from ${JSON.stringify(path.join(service, 'checkout-service.ts'))};\n` +
      `export { createMemoryStore } from ${JSON.stringify(path.join(service, 'memory-store.ts'))};\n` +
      `export { catalog } from ${JSON.stringify(path.join(service, 'catalog.ts'))};\n` +
      `export { defaultLimits } from ${JSON.stringify(path.join(service, 'limits.ts'))};\n`,
  );
  const { createCheckoutService, createMemoryStore, catalog, defaultLimits } = await importTypeScript(entry, [
    {
      name: 'generated-idl-module',
      setup(b) {
        b.onResolve({ filter: /\.idl$/ }, () => ({ path: pathToFileURL(generatedFile).href, external: true }));
      },
    },
  ]);
  const products = benchCatalog(catalog);
  // Every call of the suite comes from one address: the budget of new carts per client
  // (docs/playground.md, "Limits") would refuse nearly all of them.
  const limits = { ...defaultLimits, maxNewCartsPerClient: Number.MAX_SAFE_INTEGER };
  return {
    handlers: createCheckoutService({ store: boundedCartStore(() => createMemoryStore({ products, limits })) }),
    source: 'playground/service (createCheckoutService)',
  };
}

/**
 * A memory store (made by `newStore`), started over after every `maxCartAdds` lines added: the store keeps
 * at most 10,000 carts (its limit) and the suite creates a cart with nearly every call.
 */
function boundedCartStore(newStore) {
  let store = newStore();
  let adds = 0;
  return {
    limits: store.limits,
    listProducts: () => store.listProducts(),
    getProduct: (productId) => store.getProduct(productId),
    addItem(cartId, productId, quantity, create) {
      if (++adds > maxCartAdds) {
        store = newStore();
        adds = 0;
      }
      return store.addItem(cartId, productId, quantity, create);
    },
    getCart: (cartId) => store.getCart(cartId),
    clearCart: (cartId) => store.clearCart(cartId),
    placeOrder: (draft, check) => store.placeOrder(draft, check),
    getOrder: (orderId) => store.getOrder(orderId),
    expireCarts: (now) => store.expireCarts(now),
    close: () => store.close(),
  };
}
