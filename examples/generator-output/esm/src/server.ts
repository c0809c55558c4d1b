// Starts the shop service: `node dist/src/server.js` (SERVER_PORT, else 8080; 0 picks a free port).
import { createShopServer } from '../gen/index.js';
import { listen } from '../gen/runtime/index.js';
import { handlers } from './handlers.js';

const httpServer = await listen(createShopServer(handlers));

const address = httpServer.address();
const port = typeof address === 'object' && address !== null ? address.port : address;
console.log(`Shop service listening on http://localhost:${port}/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    httpServer.close(() => process.exit(0));
    httpServer.closeAllConnections();
  });
}
