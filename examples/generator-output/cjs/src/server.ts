// Starts the shop service: `node dist/src/server.js` (SERVER_PORT, else 8080; 0 picks a free port).
// CommonJS has no top-level await: the start is a promise chain, and a failure (say, the port is
// taken) ends the process with a message and exit code 1.
import { createShopServer } from '../gen/index.js';
import { listen } from '../gen/runtime/index.js';
import { handlers } from './handlers.js';

listen(createShopServer(handlers)).then(
  (httpServer) => {
    const address = httpServer.address();
    const port = typeof address === 'object' && address !== null ? address.port : address;
    console.log(`Shop service listening on http://localhost:${port}/`);

    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        httpServer.close(() => process.exit(0));
        httpServer.closeAllConnections();
      });
    }
  },
  (error: Error) => {
    console.error(`Shop service could not start: ${error.message}`);
    process.exit(1);
  },
);
