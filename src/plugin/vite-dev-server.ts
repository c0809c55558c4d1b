/**
 * The Vite dev server part: `/openapi.json`, `/openrpc.json` and, when `server` is configured, the RPC endpoint
 * (and, with `server.mcp`, the MCP binding) with the user's handlers loaded through Vite's SSR module runner. The runner reloads a module when it
 * (or the `.idl` it depends on) changes, so edits take effect on the next request, no restart.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ViteDevServer } from 'vite';
import type { IdlSourceFiles } from './idl-source-files.js';
import { type CachedIdlModule, openApiDocument, openRpcDocument } from './compiler.js';
import type { OpenApiAsset } from './openapi-asset.js';
import type { ResolvedOptions } from './options.js';
import { readIdlFile } from './read-idl-file.js';
import { useDocsPage } from './vite-docs-page.js';
import { isHostedRequest, type Middleware, type RpcHostOptions, rpcHostFor, sendLoadFailure } from './rpc-host.js';
import { rpcProblemReporter } from './vite-rpc-problems.js';
import { SERVER_ENTRY_ID, type ServerEntryModule } from './server-entry.js';
import { endpointCors } from './vite-cors.js';

/** Builds a served document (openapi.json, openrpc.json) of the modules (through the document cache). */
type DocumentBuilder = (modules: CachedIdlModule[]) => Promise<OpenApiAsset>;

interface ModuleRunnerLike {
  import(url: string): Promise<unknown>;
  clearCache(): void;
}

interface ModuleGraphLike {
  invalidateAll(): void;
}

/**
 * Registers the middlewares (before Vite's own, so `/rpc` is never answered with index.html, and a stream
 * method's events go out as they are made, with nothing of Vite's in between).
 */
export function configureDevServer(
  server: ViteDevServer,
  options: ResolvedOptions,
  loadedIdlFiles: () => Iterable<string>,
  sourceFiles: IdlSourceFiles,
  compile: (file: string) => Promise<CachedIdlModule>,
  cacheFolder: () => string | undefined,
): void {
  const root = server.config.root;
  /** The `.idl` files the documents describe: those loaded so far, and the served one. */
  const describedFiles = () => {
    const files = new Set([...loadedIdlFiles()].filter((file) => existsSync(file)));
    if (options.server) files.add(path.resolve(root, options.server.idl));
    return [...files].sort();
  };
  const documents: { fileName: string; build: DocumentBuilder }[] = [];
  const { openapi, openrpc } = options;
  if (openapi) documents.push({ fileName: openapi.fileName, build: (modules) => openApiDocument(modules, openapi, cacheFolder()) });
  if (openrpc) documents.push({ fileName: openrpc.fileName, build: (modules) => openRpcDocument(modules, openrpc, cacheFolder()) });
  for (const { fileName, build } of documents) {
    server.middlewares.use(`/${fileName}`, (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      serveDocument(res, describedFiles(), compile, build).catch(next);
    });
  }
  useDocsPage(server, options, 'dev');
  if (!options.server) return;
  // Checked by shape: a value import of 'vite' would load Vite in every other bundler too.
  const ssr = server.environments.ssr as ViteDevServer['environments'][string] & { runner?: ModuleRunnerLike };
  const runner = ssr.runner;
  if (!runner) {
    server.config.logger.warn('[unplugin-idl-rpc] the SSR environment cannot run modules; the RPC endpoint is off');
    return;
  }
  const hostOptions: RpcHostOptions = {
    rpcPath: options.rpcPath,
    exposeErrors: options.exposeErrors,
    cors: endpointCors(server.config.server.cors),
    httpStatus: options.httpStatus,
    mcp: options.server.mcp,
    cache: options.server.cache,
  };
  const hostFor = rpcHostFor(hostOptions);
  const servedIdl = path.resolve(root, options.server.idl);
  const handlersFile = options.server.handlers === undefined ? undefined : path.resolve(root, options.server.handlers);
  /** The text of each source of the endpoint at the previous request (undefined: unreadable). */
  const servedTexts = new Map<string, string | undefined>();
  // Vite's watcher reloads the runner's modules when the `.idl` (or a file it imports) or the
  // handler module changes, but an edit that lands while the previous version is being
  // transformed can leave the old one cached (an editor that formats on save writes twice in a
  // row). The files are small: compare them on each request and start afresh when one differs
  // from the last one served. A file seen for the first time is no change: starting afresh would
  // drop the handlers' state for nothing.
  const forgetStaleSources = async (): Promise<void> => {
    const files = [...(sourceFiles.filesOf(servedIdl) ?? [servedIdl]), ...(handlersFile === undefined ? [] : [handlersFile])];
    // Through the bounded reader, the handler module too: a file too large to compare is never stale.
    const texts = await Promise.all(files.map((file) => readIdlFile(file, options.maxIdlBytes).catch(() => undefined)));
    if (files.some((file, index) => servedTexts.has(file) && servedTexts.get(file) !== texts[index])) {
      (ssr.moduleGraph as unknown as ModuleGraphLike).invalidateAll();
      runner.clearCache();
    }
    for (const [index, file] of files.entries()) servedTexts.set(file, texts[index]);
  };
  const problems = rpcProblemReporter(server);
  const handlersModule = options.server.handlers ?? 'mock mode';
  /**
   * What answers the endpoint now: the RPC server of the current entry, or an error answer saying
   * why there is none. Never rejects: no edit of the handlers or the `.idl` may end the process.
   */
  const currentHost = async (): Promise<Middleware> => {
    let entry: ServerEntryModule;
    try {
      await forgetStaleSources();
      entry = (await runner.import(SERVER_ENTRY_ID)) as ServerEntryModule;
    } catch (error) {
      // The runner keeps a module that failed to load; forget it, so the next request after
      // the fix loads everything afresh.
      runner.clearCache();
      problems.failure(error);
      return (_req, res) => sendLoadFailure(res, error, options.exposeErrors);
    }
    const hosted = hostFor(entry);
    if (hosted.failure !== undefined) {
      problems.failure(hosted.failure, `the RPC server cannot start with the handlers of ${handlersModule}`);
      return hosted.middleware;
    }
    problems.recovered();
    if (hosted.fresh && hosted.problem) problems.warning(`${handlersModule} ${hosted.problem}`);
    if (hosted.fresh && hosted.mcpFailure !== undefined) problems.failure(hosted.mcpFailure, 'the MCP binding cannot start');
    return hosted.middleware;
  };
  // The handlers load when the server starts, so that what is wrong with them shows at once, not
  // on the first call.
  server.httpServer?.once('listening', () => {
    currentHost().catch(() => undefined);
  });
  server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (!isHostedRequest(req.url, hostOptions)) return next();
    currentHost()
      .then((middleware) => middleware(req, res, next))
      .catch((error: unknown) => {
        // A failure of the endpoint itself, past the handlers: answered, never left to end the process.
        problems.failure(error);
        sendLoadFailure(res, error, options.exposeErrors);
      });
  });
}

/**
 * A document (OpenAPI, OpenRPC) for the `.idl` files loaded so far, from their current content: the compile cache
 * gives an unchanged file at once, and compiles an edited one (so edits show at once); the document
 * cache answers a repeated request for the same content without converting again.
 */
async function serveDocument(
  res: ServerResponse,
  files: string[],
  compile: (file: string) => Promise<CachedIdlModule>,
  build: DocumentBuilder,
): Promise<void> {
  if (files.length === 0) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('No .idl file has been loaded yet: open a page that imports one, then reload this document.\n');
    return;
  }
  try {
    const modules = await Promise.all(files.map((file) => compile(file)));
    const { source } = await build(modules);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.end(source);
  } catch (error) {
    res.statusCode = 500;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(error instanceof Error ? error.message : String(error));
  }
}
