import { createCheckoutService } from './checkout-service.js';

/**
 * The handler module the Vite dev server hosts on `/rpc` and the OpenAPI binding (see
 * vite.config.ts): the checkout service over a fresh in-memory store. Editing a service file
 * reloads this module, so the dev server starts over with the seed catalog and no carts.
 */
export default createCheckoutService();
