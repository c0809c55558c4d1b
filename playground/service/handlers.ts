import { createCheckoutService } from './checkout-service.js';
import { createMemoryStore } from './memory-store.js';

/**
 * The handler module the Vite dev server hosts on `/rpc` and the OpenAPI binding (see
 * vite.config.ts): the checkout service over a fresh in-memory store.
 */
export default createCheckoutService({ store: createMemoryStore() });
