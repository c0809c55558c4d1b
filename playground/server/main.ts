/**
 * The standalone checkout server (npm run playground:server): the service of checkout.idl over an
 * in-memory store on SERVER_PORT (default 8080), all interfaces.
 *
 * `vite build --ssr` bundles this file, the generated code and the runtime into dist/server/main.js,
 * so nothing of Vite runs here.
 */
import { startCheckoutServer } from './start.js';

const httpServer = await startCheckoutServer();

const address = httpServer.address();
const port = typeof address === 'object' && address !== null ? address.port : address;
console.log(`Checkout service listening on http://localhost:${port}/ (JSON-RPC 2.0 on / and /rpc; Ctrl+C stops it)`);
console.log(`API reference and console: http://localhost:${port}/__idl/docs`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    httpServer.close(() => process.exit(0));
    httpServer.closeAllConnections();
  });
}
