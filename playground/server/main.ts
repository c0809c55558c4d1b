/**
 * The standalone checkout server (npm run playground:server): the service of checkout.idl over an
 * in-memory store on SERVER_PORT (default 8080), all interfaces. CORS_ORIGINS (comma separated, or
 * `*`) lets pages on those origins call it; SIGTERM and SIGINT shut it down gracefully.
 *
 * `vite build --ssr` bundles this file, the generated code and the runtime into dist/server/main.js,
 * so nothing of Vite runs here.
 */
import { corsOriginsFromEnvironment, startCheckoutServer } from './start.js';

const corsOrigins = corsOriginsFromEnvironment(process.env.CORS_ORIGINS);
const httpServer = await startCheckoutServer({ corsOrigins, shutdownOnSignals: true });

const address = httpServer.address();
const port = typeof address === 'object' && address !== null ? address.port : address;
console.log(`Checkout service listening on http://localhost:${port}/ (JSON-RPC 2.0 on / and /rpc; Ctrl+C stops it)`);
if (corsOrigins) console.log(`Pages on ${corsOrigins === '*' ? 'any origin' : corsOrigins.join(', ')} may call it (CORS_ORIGINS)`);
