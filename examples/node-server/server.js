// @ts-check
// The server entry every bundler starts from. `./shop.idl` is compiled by the plugin at build time
// into plain JavaScript (createShopServer, validators compiled ahead of time, error classes); the
// bundle carries it, the runtime and TypeBox, so it runs with `node` alone.
import { listen } from 'unplugin-idl-rpc/runtime';
import { createShopServer } from './shop.idl';
import { handlers } from './handlers.js';

// SERVER_PORT, else 8080 (0 picks a free port); all interfaces.
const httpServer = await listen(createShopServer(handlers));

const address = httpServer.address();
const port = typeof address === 'object' && address !== null ? address.port : address;
console.log(
  `Shop service listening on http://localhost:${port}/ (JSON-RPC on every path, POST /ShopService/<method> for the OpenAPI binding)`,
);

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    httpServer.close(() => process.exit(0));
    httpServer.closeAllConnections();
  });
}
