// The server entry: `node build.mjs`, then `node dist/server.mjs`. `./payments.idl` is compiled by
// the plugin at build time (validators compiled ahead of time, wire conversions, error classes);
// openapi.json is written beside the bundle.
import { listen } from 'unplugin-idl-rpc/runtime';
import { handlers } from './handlers.js';
import { createPaymentsServer } from './payments.idl';

// SERVER_PORT, else 8080 (0 picks a free port).
const httpServer = await listen(createPaymentsServer(handlers));
const address = httpServer.address();
const port = typeof address === 'object' && address !== null ? address.port : address;
console.log(`Payments service listening on http://localhost:${port}/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    httpServer.close(() => process.exit(0));
    httpServer.closeAllConnections();
  });
}
