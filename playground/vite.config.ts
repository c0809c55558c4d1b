import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import idlRpc from 'unplugin-idl-rpc/vite';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const databaseClients = ['@electric-sql/pglite', 'pg'];

/**
 * The checkout playground.
 *
 * - `vite` (npm run playground): the page, the RPC endpoint `/rpc`, the OpenAPI binding
 *   (`POST /rpc/<Interface>/<method>`), `/openapi.json` and the API reference page `/__idl/docs`,
 *   with the handlers of service/handlers.ts.
 * - `vite build` (npm run playground:build): the page into dist/, with dist/openapi.json.
 * - `vite build --ssr` (also npm run playground:build): the standalone server, server/main.ts, into
 *   dist/server/main.js: one file with the runtime bundled in, started with plain `node`.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root,
  plugins: [idlRpc({ server: { idl: 'checkout.idl', handlers: 'service/handlers.ts' } }), checkoutIdlSource(), printPlaygroundAddresses()],
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        rollupOptions: { input: 'server/main.ts', output: { entryFileNames: 'main.js' } },
      }
    : { outDir: 'dist', emptyOutDir: true },
  // Bundle everything into the server build, so that it runs with `node` alone, except the two
  // database clients: PGlite loads its WebAssembly and data files from beside its own module, and
  // `pg` is loaded only with DATABASE_URL; both come from the repository's node_modules.
  ssr: isSsrBuild ? { noExternal: true, external: databaseClients } : undefined,
}));

/**
 * `import idlSource from 'virtual:checkout-idl-source'`: the text of checkout.idl, which the
 * standalone server offers AI agents as an MCP resource (server/mcp.ts). A module rather than a
 * file read at start-up, so that it is inside the server bundle; not `checkout.idl?raw`, because
 * the IDL plugin loads every `checkout.idl` import, whatever its query, as the generated code.
 */
function checkoutIdlSource(): Plugin {
  const id = 'virtual:checkout-idl-source';
  const resolvedId = `\0${id}`;
  const file = fileURLToPath(new URL('checkout.idl', import.meta.url));
  return {
    name: 'checkout-idl-source',
    resolveId: (source) => (source === id ? resolvedId : undefined),
    load(loaded) {
      if (loaded !== resolvedId) return undefined;
      this.addWatchFile(file);
      return `export default ${JSON.stringify(readFileSync(file, 'utf8'))};\n`;
    },
  };
}

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
      };
    },
  };
}
