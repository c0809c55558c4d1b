import type { Server } from 'node:http';
import { listen } from 'unplugin-idl-rpc/runtime';
import { createCheckoutServer } from '../checkout.idl';
import { createCheckoutService } from '../service/checkout-service.js';
import type { CheckoutStore } from '../service/store.js';

export interface StartOptions {
  /** Default: SERVER_PORT, else 8080; 0 picks a free port. */
  port?: number;
  /** Default: all interfaces. */
  host?: string;
  /** Default: a fresh in-memory store with the playground catalog. */
  store?: CheckoutStore;
}

/**
 * Starts the checkout service as a standalone HTTP server: JSON-RPC 2.0 on every path, plus the
 * OpenAPI binding on `/<Interface>/<method>`. Unexpected handler errors are logged, not sent.
 */
export function startCheckoutServer(options: StartOptions = {}): Promise<Server> {
  const rpcServer = createCheckoutServer(createCheckoutService({ store: options.store }));
  return listen(rpcServer, { port: options.port, host: options.host });
}
