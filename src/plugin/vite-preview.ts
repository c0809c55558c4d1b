/**
 * `vite preview` hosts the RPC server from built code, like production would: the client build
 * (`vite build`) ends with a second, SSR build of `virtual:idl-rpc-server` (runtime + handler
 * module + `.idl` module) into `server.outDir`, outside the public output folder; the preview
 * server imports that file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin, PreviewServer, ResolvedConfig } from 'vite';
import type { ResolvedDevServerOptions, ResolvedOptions } from './options.js';
import { isHostedRequest, type RpcHostOptions, rpcHostFor, sendLoadFailure } from './rpc-host.js';
import { SERVER_ENTRY_ID, type ServerEntryModule } from './server-entry.js';
import { useDocsPage } from './vite-docs-page.js';
import { endpointCors } from './vite-cors.js';
import { importModule } from './import-module.js';

/** File name of the built server entry inside `server.outDir`. */
export const SERVER_ENTRY_FILE = 'idl-rpc-server.js';

/**
 * Builds the server entry for `vite preview`. `ownPlugin` makes this plugin for a build without a
 * config file (with one, the config file brings it; that instance sees an SSR build and does not
 * start another one).
 */
export async function buildServerEntry(config: ResolvedConfig, server: ResolvedDevServerOptions, ownPlugin: () => Plugin): Promise<void> {
  const { build } = await importModule<typeof import('vite')>('vite');
  await build({
    configFile: config.configFile ?? false,
    root: config.root,
    mode: config.mode,
    logLevel: 'warn',
    plugins: config.configFile ? [] : [ownPlugin()],
    build: {
      ssr: true,
      outDir: path.resolve(config.root, server.outDir),
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { input: { [SERVER_ENTRY_FILE.replace(/\.js$/, '')]: SERVER_ENTRY_ID }, output: { entryFileNames: '[name].js' } },
    },
  });
}

/** Hosts the built RPC server in `vite preview` (exception texts are never exposed there). */
export function configurePreviewServer(server: PreviewServer, options: ResolvedOptions): void {
  useDocsPage(server, options, 'preview');
  if (!options.server) return;
  const file = path.resolve(server.config.root, options.server.outDir, SERVER_ENTRY_FILE);
  const hostOptions: RpcHostOptions = {
    rpcPath: options.rpcPath,
    exposeErrors: false,
    cors: endpointCors(server.config.preview.cors),
    httpStatus: options.httpStatus,
    mcp: options.server.mcp,
    cache: options.server.cache,
  };
  const hostFor = rpcHostFor(hostOptions);
  let entry: Promise<ServerEntryModule> | undefined;
  const logError = (error: unknown) =>
    server.config.logger.error(`[unplugin-idl-rpc] ${error instanceof Error ? error.message : String(error)}`);
  // Added now, not from a function returned to run after Vite's own: those come after the preview
  // server's gzip middleware, which would hold a stream method's events back until a compressed
  // block fills. Requests for the endpoint never reach it (`next()` is not called for them).
  server.middlewares.use((req, res, next) => {
    if (!isHostedRequest(req.url, hostOptions)) return next();
    if (!existsSync(file)) {
      sendLoadFailure(res, new Error(`${file} does not exist; run \`vite build\` before \`vite preview\``), true);
      return;
    }
    entry ??= importModule<ServerEntryModule>(pathToFileURL(file).href);
    entry
      .then((loaded) => {
        const hosted = hostFor(loaded);
        if (hosted.fresh && hosted.failure !== undefined) logError(hosted.failure);
        if (hosted.fresh && hosted.mcpFailure !== undefined) logError(hosted.mcpFailure);
        if (hosted.fresh && hosted.problem) server.config.logger.warn(`[unplugin-idl-rpc] ${options.server?.handlers} ${hosted.problem}`);
        hosted.middleware(req, res, next);
      })
      .catch((error: unknown) => {
        logError(error);
        sendLoadFailure(res, error, false);
      });
  });
}
