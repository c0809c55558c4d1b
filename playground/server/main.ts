/**
 * The standalone checkout server (npm run playground:server): the service of checkout.idl on
 * SERVER_PORT (default 8080), all interfaces, over PostgreSQL when DATABASE_URL is set, else over
 * PGlite in PLAYGROUND_DATA_DIR (default playground/.data), each order fulfilled a step every
 * PLAYGROUND_FULFILMENT_STEP_MS (default 5000). WORKERS=N runs N processes on one
 * port (node:cluster); they need the one database a PostgreSQL server gives them all. CORS_ORIGINS
 * (comma separated, or `*`) lets pages on those origins call it; its MCP binding for AI agents is on
 * `/mcp` unless PLAYGROUND_MCP=off; SIGTERM and SIGINT shut it down gracefully.
 *
 * `vite build --ssr` bundles this file, the generated code and the runtime into dist/server/main.js,
 * so nothing of Vite runs here; the database clients stay packages of node_modules.
 */
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { limitsFromEnv } from '../service/limits.js';
import { fulfilmentFromEnv } from '../service/order-lifecycle.js';
import { describeStoreLocation, openStore, storeLocationFromEnv } from '../store/open-store.js';
import { mcpFromEnvironment } from './mcp.js';
import { corsOriginsFromEnvironment, startCheckoutServer } from './start.js';
import { runPrimary, workerCount } from './workers.js';

/** Prints the reason, without a stack, and exits: every way this script can fail to start. */
function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

// The bundle sits in playground/dist/server/: the data folder is playground/.data.
const location = storeLocationFromEnv(process.env, fileURLToPath(new URL('../../.data', import.meta.url)));
const storeOptions = (() => {
  try {
    return { limits: limitsFromEnv(process.env), fulfilment: fulfilmentFromEnv(process.env) };
  } catch (error) {
    return refuse((error as Error).message);
  }
})();
const corsOrigins = corsOriginsFromEnvironment(process.env.CORS_ORIGINS);
const mcp = (() => {
  try {
    return mcpFromEnvironment(process.env.PLAYGROUND_MCP) ?? true;
  } catch (error) {
    return refuse((error as Error).message);
  }
})();
const workers = workerCount(process.env.WORKERS);
if (typeof workers === 'string') refuse(workers);
if (workers > 1 && location.databaseUrl === undefined) {
  refuse(
    `WORKERS=${workers} needs a PostgreSQL server: the embedded PGlite database lives in one process. ` +
      'Set DATABASE_URL (see docs/playground.md, "Several processes"), or run one process without WORKERS.',
  );
}

if (workers > 1 && cluster.isPrimary) {
  runPrimary(workers, Number(process.env.SERVER_PORT ?? 8080), describeStoreLocation(location));
} else {
  const store = await openStore(location, storeOptions).catch((error: Error) => refuse(error.message));
  const httpServer = await startCheckoutServer({ store, corsOrigins, mcp });

  if (cluster.isPrimary) {
    const address = httpServer.address();
    const port = typeof address === 'object' && address !== null ? address.port : address;
    console.log(`Checkout service listening on http://localhost:${port}/ (JSON-RPC 2.0 on / and /rpc; Ctrl+C stops it)`);
    console.log(`API reference and console: http://localhost:${port}/__idl/docs`);
    if (mcp) console.log(`MCP server for AI agents: http://localhost:${port}/mcp (docs/mcp.md, "The playground")`);
    if (corsOrigins) console.log(`Pages on ${corsOrigins === '*' ? 'any origin' : corsOrigins.join(', ')} may call it (CORS_ORIGINS)`);
    console.log(`Data: ${describeStoreLocation(location)}`);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // Graceful: the calls in flight are answered before the database closes.
      httpServer
        .shutdown()
        .then(() => store.close())
        .finally(() => process.exit(0));
    });
  }
}
