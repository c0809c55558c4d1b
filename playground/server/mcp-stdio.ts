/**
 * The checkout service for desktop AI clients, over stdio: `npx idlrpc -mcp-stdio
 * playground/dist/server/mcp-stdio.js` (docs/mcp.md, "The playground") serves this module's
 * `server`, the standalone server's tools and resources on an in-memory store of its own (a fresh
 * catalog each time the client starts it; the HTTP server's data is not shared).
 *
 * `vite build --ssr` bundles it into dist/server/mcp-stdio.js beside the documents it offers.
 */
import { createPlaygroundServer } from './start.js';

export const server = createPlaygroundServer();
