import { fileURLToPath } from 'node:url';
import { sharedStore, storeLocationFromEnv } from '../store/open-store.js';
import { createCheckoutService } from './checkout-service.js';
import { limitsFromEnv } from './limits.js';
import { fulfilmentFromEnv } from './order-lifecycle.js';

/**
 * The handler module the Vite dev server hosts on `/rpc` and the OpenAPI binding (see
 * vite.config.ts): the checkout service over PostgreSQL when `DATABASE_URL` is set, else over
 * PGlite in `PLAYGROUND_DATA_DIR` (default `playground/.data`; `:memory:` keeps nothing), its
 * orders fulfilled a step every `PLAYGROUND_FULFILMENT_STEP_MS`.
 *
 * Editing a service file or checkout.idl reloads this module; the store is the one this process
 * already has open (sharedStore), so carts and orders stay and PGlite is opened only once.
 */
const location = storeLocationFromEnv(process.env, fileURLToPath(new URL('../.data', import.meta.url)));

const storeOptions = { limits: limitsFromEnv(process.env), fulfilment: fulfilmentFromEnv(process.env) };

export default createCheckoutService({ store: await sharedStore(location, storeOptions) });
