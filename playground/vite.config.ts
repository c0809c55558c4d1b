import { fileURLToPath } from 'node:url';
import idlRpc from 'unplugin-idl-rpc/vite';
import { defineConfig, type Plugin } from 'vite';
import { checkoutMcpTools } from './server/mcp-tools.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const databaseClients = ['@electric-sql/pglite', 'pg'];

/**
 * The checkout playground.
 *
 * - `vite` (npm run playground): the page, the RPC endpoint `/rpc`, the OpenAPI binding
 *   (`POST /rpc/<Interface>/<method>`), `/openapi.json`, the API reference page `/__idl/docs` and
 *   the MCP binding for AI agents `/mcp`, with the handlers of service/handlers.ts.
 * - `vite build` (npm run playground:build): the page into dist/, with dist/openapi.json.
 * - `vite build --ssr` (also npm run playground:build): the standalone server, server/main.ts, into
 *   dist/server/main.js, started with plain `node`, and server/mcp-stdio.ts into
 *   dist/server/mcp-stdio.js, served over stdio by `idlrpc -mcp-stdio`; the runtime is bundled in,
 *   in a chunk the two share beside them.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root,
  plugins: [
    idlRpc({ server: { idl: 'checkout.idl', handlers: 'service/handlers.ts', mcp: checkoutMcpTools } }),
    printPlaygroundAddresses(),
  ],
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        rollupOptions: {
          input: { main: 'server/main.ts', 'mcp-stdio': 'server/mcp-stdio.ts' },
          // Chunks beside the entries: the server finds openapi.json and openrpc.json beside its code.
          output: { entryFileNames: '[name].js', chunkFileNames: '[name].js' },
        },
      }
    : { outDir: 'dist', emptyOutDir: true },
  // Bundle everything into the server build, so that it runs with `node` alone, except the two
  // database clients: PGlite loads its WebAssembly and data files from beside its own module, and
  // `pg` is loaded only with DATABASE_URL; both come from the repository's node_modules.
  ssr: isSsrBuild ? { noExternal: true, external: databaseClients } : undefined,
}));

/** After Vite's own "Local: http://..." lines, says what to open and try. */
function printPlaygroundAddresses(): Plugin {
  return {
    name: 'playground-addresses',
    apply: 'serve',
    configureServer(server) {
      const printUrls = server.printUrls.bind(server);
      server.printUrls = () => {
        printUrls();
        const base = server.resolvedUrls?.local[0];
        if (!base) return;
        const info = (line: string) => server.config.logger.info(line);
        info('');
        info(`  Checkout playground: open ${base} and add a few products to the cart.`);
        info(`  JSON-RPC endpoint:   POST ${new URL('rpc', base).href}`);
        info(`  API reference:       ${new URL('__idl/docs', base).href} (try the calls there)`);
        info(`  OpenAPI document:    ${new URL('openapi.json', base).href}`);
        info(`  MCP for AI agents:   ${new URL('mcp', base).href} (docs/mcp.md)`);
      };
    },
  };
}
