/**
 * The unplugin factory behind every bundler entry (`unplugin-idl-rpc/vite`, `/rollup`, `/rolldown`,
 * `/esbuild`, `/webpack`, `/rspack`, `/rsbuild`, `/farm`, `/bun`).
 *
 * - `load` turns `./checkout.idl` (with or without a query) into plain JavaScript from the code
 *   generator, and writes `checkout.idl.d.ts` beside it for editors and `tsc` (and the `.d.ts` of
 *   each imported file with a namespace of its own, see imported-dts.ts; in the Vite dev server just
 *   after the module is handed over, see deferred-disk-writes.ts). It has the bundler watch
 *   every file the module was compiled from. In the Vite dev server it keeps to Vite's `server.fs`
 *   rules (see vite-fs-access.ts).
 * - `resolveId` maps the imports of generated code (runtime, TypeBox) to this package's own copies
 *   (under webpack, Rspack and Rsbuild, a rule of the bundler's own aliases does: see
 *   webpack-family-resolve.ts). In the Vite dev server the runtime and TypeBox are pre-bundled
 *   instead (vite-optimize-deps.ts).
 * - `buildEnd` emits one `openapi.json` and one `openrpc.json` next to the bundle for every `.idl`
 *   the build imported.
 * - Vite only: the dev server hosts the RPC endpoint, `/openapi.json` and `/openrpc.json`; `vite build` also builds
 *   the handler module so that `vite preview` can host it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SourceMapCompact, UnpluginBuildContext, UnpluginContext, UnpluginFactory, UnpluginInstance } from 'unplugin';
import type { Plugin, ResolvedConfig, ViteDevServer } from 'vite';
import { IDL_ID_FILTER, idlFileOfId, isIdlId } from './idl-id.js';
import { declarationFiles, dtsFileOf } from '../codegen/declaration-files.js';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { IdlSourceFiles } from './idl-source-files.js';
import { writeImportedDts } from './imported-dts.js';
import { cacheFolder } from './cache-folder.js';
import { DeferredDiskWrites } from './deferred-disk-writes.js';
import { BreakingCheck } from './breaking-check.js';
import { type CachedIdlModule, compileIdlFile, openApiDocument, openRpcDocument } from './compiler.js';
import { resolveOptions, type IdlRpcPluginOptions } from './options.js';
import { IdlFileReadError } from './read-idl-file.js';
import { reportIdlError, reportUnreadableIdl } from './report-error.js';
import { farmContext } from './farm-context.js';
import { GENERATED_IMPORT_FILTER, resolveGeneratedImport, resolveRuntimeFile, RUNTIME_IMPORT, TYPEBOX_IMPORT } from './runtime-paths.js';
import { devServerDependencyConfig } from './vite-optimize-deps.js';
import { idlHotUpdateModules } from './vite-hot-update.js';
import { devServerFsAccess, type DevServerFsAccess } from './vite-fs-access.js';
import { RESOLVED_SERVER_ENTRY_ID, SERVER_ENTRY_ID, serverEntryCode } from './server-entry.js';
import { writeIfChanged } from '../atomic-write.js';
import { generatedImportsRule, WEBPACK_FAMILY } from './webpack-family-resolve.js';
import { addModuleFacade } from './esbuild-module-facade.js';
import { partOfId } from './module-parts.js';

export type {
  IdlRpcPluginOptions,
  OpenApiOptions,
  OpenRpcOptions,
  DevServerOptions,
  McpPluginOptions,
  BreakingOptions,
} from './options.js';

/** A document written next to the bundle: its file name and JSON text. */
interface BuiltDocument {
  fileName: string;
  source: string;
}

const PLUGIN_NAME = 'unplugin-idl-rpc';

/**
 * The hosts that get a large module in parts (module-parts.ts), besides `vite build`: their builds of
 * a 10,008-line IDL's app were 4-20% faster with them. Rollup (one thread) gained nothing, webpack and
 * Farm's warm builds lost 2-12%, Bun resolves no query on a file (docs/benchmarks.md, "Issue 37: large modules in parts, and JavaScript with declarations").
 */
const HOSTS_WITH_PARTS: ReadonlySet<string> = new Set(['esbuild', 'rolldown', 'rspack', 'rsbuild']);
/**
 * How long an `.idl` must hold still in the dev server before its compile cache entry is written:
 * longer than the pause between an editor's saves of one change, short enough that a server
 * stopped a moment later has it.
 */
const DEV_CACHE_WRITE_QUIET_MS = 1000;

/**
 * How long an `.idl` must hold still in the dev server before its `.idl.d.ts` is written: long
 * enough for Vite to serve the module first (tens of milliseconds after the compile for a large
 * one: printing the declarations took 15-20 ms of a 10,000-line file's edit when it ran in between),
 * and once per burst of saves; short enough for an editor not to notice.
 */
const DEV_DECLARATIONS_QUIET_MS = 300;

/** The part of Vite's plugin context used here (unplugin's types leave it out). */
interface ViteResolveContext {
  resolve(id: string, importer: string, options: { skipSelf: boolean }): Promise<{ id: string } | null>;
}

/** The part of a Vite hook's context that says which environment runs it. */
interface ViteEnvironmentContext {
  environment?: { config?: { consumer?: 'client' | 'server' } };
}

/**
 * Whether a hook runs for an environment whose modules a browser can request by URL. Vite applies
 * `server.fs` only there: server environments import what the project's own code names.
 */
function servesBrowser(context: unknown): boolean {
  return (context as ViteEnvironmentContext).environment?.config?.consumer !== 'server';
}

/**
 * The plugins each host's entry makes from {@link unpluginFactory}. Each entry calls unplugin's
 * `create<Host>Plugin` itself, so that its bundle (src/build/bundle-plugin.mjs) holds that host's
 * shell of unplugin alone; those functions' types forget that the factory makes one plugin, not a
 * list, and the entries restore it with this type.
 */
export type IdlRpcUnplugin = UnpluginInstance<IdlRpcPluginOptions | undefined, false>;

export const unpluginFactory: UnpluginFactory<IdlRpcPluginOptions | undefined, false> = (userOptions, meta) => {
  const options = resolveOptions(userOptions);
  /**
   * Every `.idl` module this plugin instance loaded, by file (for openapi.json, from their models).
   * Kept across watch rebuilds (webpack does not reload unchanged modules), so an `.idl` dropped
   * from the imports stays in openapi.json until the watcher restarts.
   */
  const modules = new Map<string, CachedIdlModule>();
  /** The files each loaded `.idl` was compiled from (the Vite dev server updates its modules by them). */
  const sourceFiles = new IdlSourceFiles();
  let viteConfig: ResolvedConfig | undefined;
  /** Whether this is Vite's dev server (`vite` / `vite dev`), where modules are served as they are edited. */
  const inViteDevServer = () => viteConfig?.command === 'serve';
  /** The document of a Vite SSR build, which drops emitted assets: written in `writeBundle`. */
  let ssrDocuments: BuiltDocument[] = [];
  /** Set in the Vite dev server only: where breaking changes are shown in the overlay. */
  let devServer: ViteDevServer | undefined;
  /** Set in the Vite dev server only. */
  let devFsAccess: DevServerFsAccess | undefined;
  /** The `breaking` option's check, when it is on. */
  const breakingCheck = options.breaking ? new BreakingCheck(options.breaking) : undefined;
  /** The disk cache's folder (undefined: none), found on first use: Vite's root is known only then. */
  let diskCache: { folder: string | undefined } | undefined;
  /** The dev server's disk cache writes, put off until an edited file holds still (deferred-disk-writes.ts). */
  const deferredDiskWrites = new DeferredDiskWrites(DEV_CACHE_WRITE_QUIET_MS);
  /** The dev server's `.idl.d.ts` writes, made once the module has been served. */
  const deferredDeclarationWrites = new DeferredDiskWrites(DEV_DECLARATIONS_QUIET_MS);

  function diskCacheFolder(): string | undefined {
    diskCache ??= { folder: cacheFolder(viteConfig?.root ?? process.cwd(), options.cache, options.cacheDir) };
    return diskCache.folder;
  }

  /**
   * Whether a large module may be handed over in parts (module-parts.ts): in builds by bundlers that
   * parse modules in parallel and were measured faster with them. Not Vite's dev server, whose hot
   * updates replace a module whole.
   */
  const hostTakesParts = () => HOSTS_WITH_PARTS.has(meta.framework) || viteConfig?.command === 'build';

  /**
   * {@link hostTakesParts}, but not in an esbuild build that does not bundle: esbuild would write the
   * index with its imports of the parts as they are, and nothing would load them.
   */
  function buildTakesParts(context: UnpluginBuildContext): boolean {
    const native = context.getNativeBuildContext?.();
    return hostTakesParts() && (native?.framework !== 'esbuild' || Boolean(native.build.initialOptions.bundle));
  }

  /**
   * Compiles an `.idl` file through the compile cache (in memory, and on disk unless turned off);
   * `inParts`: a large module may come in parts (the host's choice unless the build says otherwise).
   */
  function compile(file: string, inParts = hostTakesParts()): Promise<CachedIdlModule> {
    const deferredWrites = inViteDevServer() ? deferredDiskWrites : undefined;
    return compileIdlFile(file, options.maxIdlBytes, diskCacheFolder(), deferredWrites, inParts);
  }

  /**
   * Has the bundler watch the files `file` was compiled from, so that an edit of any of them
   * rebuilds the module (esbuild gets them as `watchFiles` of the load result, through unplugin).
   * The module's own file too: Rollup and Rolldown watch a module a plugin loads only when told.
   * Not in Vite's dev server, whose watcher maps the module's file to the module already, and where
   * the module would become its own importer. Called before an error is reported (Rollup, Rolldown
   * and Vite throw there), so that fixing any of the files rebuilds too.
   */
  function watchSourceFiles(context: UnpluginBuildContext, file: string, files: readonly string[]) {
    sourceFiles.record(file, files);
    if (meta.framework === 'farm') {
      // Farm: through its own context (see farm-context.ts); it watches the module's own file already.
      for (const sourceFile of files) if (sourceFile !== file) farmContext(context).addWatchFile(file, sourceFile);
      return;
    }
    for (const sourceFile of files) if (!(inViteDevServer() && sourceFile === file)) context.addWatchFile(sourceFile);
  }

  /**
   * Writes `file`'s `.idl.d.ts` (and map) beside it and those of the files it imports; `warn` gets
   * one message per imported file that could not be declared (see imported-dts.ts).
   */
  async function writeDeclarations(file: string, compiled: CachedIdlModule, warn: (message: string) => void) {
    const mayWriteBeside = (idlFile: string) => devFsAccess?.mayWriteBeside(idlFile) ?? true;
    if (mayWriteBeside(file)) {
      for (const [output, text] of declarationFiles(file, compiled, options.declarationMap)) await writeIfChanged(output, text);
    }
    const problems = await writeImportedDts(compiled.programFiles, compile, mayWriteBeside, options.declarationMap);
    for (const problem of problems) warn(problem);
  }

  /** {@link writeDeclarations} after the module was served: what goes wrong is told on the dev server's log. */
  async function writeDeclarationsInDevServer(file: string, compiled: CachedIdlModule) {
    const warn = (message: string) => {
      if (devServer) devServer.config.logger.warn(`[${PLUGIN_NAME}] ${message}`, { timestamp: true });
      else console.warn(`[${PLUGIN_NAME}] ${message}`);
    };
    try {
      await writeDeclarations(file, compiled, warn);
    } catch (error) {
      warn(`${dtsFileOf(file)} not written: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A part of a module handed over in parts: compiled when its index was (a hit in memory), which
   * also wrote its declarations. Watched as the index is: a bundler reloads each module by its own.
   */
  async function loadPart(context: UnpluginBuildContext & UnpluginContext, file: string, part: string) {
    const compiled = await compile(file);
    watchSourceFiles(context, file, compiled.files);
    const found = compiled.parts?.find((candidate) => candidate.part === part);
    if (!found) {
      context.error(`${file}: its module has no part '${part}' (parts are imported by the module itself, not by apps)`);
      return { code: '', map: null };
    }
    return { code: found.js, map: readsSourceMaps(context, viteConfig) ? (JSON.parse(found.jsMap) as SourceMapCompact) : null };
  }

  async function loadIdl(context: UnpluginBuildContext & UnpluginContext, id: string) {
    const file = idlFileOfId(id);
    const part = partOfId(id);
    if (part !== undefined) return loadPart(context, file, part);
    // Left to Vite, whose own loader refuses the file too and answers 403 or 404 as for any file.
    if (devFsAccess && servesBrowser(context) && !devFsAccess.mayLoad(file)) return null;
    try {
      const compiled = await compile(file, buildTakesParts(context));
      watchSourceFiles(context, file, compiled.files);
      modules.set(file, compiled);
      if (options.dts) {
        // The dev server serves the module first: editors and `tsc` read the declarations, not the page.
        if (inViteDevServer()) deferredDeclarationWrites.schedule(path.resolve(file), () => writeDeclarationsInDevServer(file, compiled));
        else await writeDeclarations(file, compiled, (problem) => context.warn(problem));
      }
      await breakingCheck?.run(context, file, compiled, {
        root: viteConfig?.root ?? process.cwd(),
        devServer: inViteDevServer(),
        maxBytes: options.maxIdlBytes,
        ...(devServer ? { overlay: overlayOf(devServer) } : {}),
      });
      // Devtools and stack traces show the IDL (the map embeds its text: a browser cannot read the
      // disk). An object, not JSON: unplugin's esbuild shell adds to it.
      return { code: compiled.js, map: readsSourceMaps(context, viteConfig) ? (JSON.parse(compiled.jsMap) as SourceMapCompact) : null };
    } catch (error) {
      if (!(error instanceof IdlModuleError || error instanceof IdlFileReadError)) throw error;
      watchSourceFiles(context, file, error instanceof IdlModuleError ? error.files : [file]);
      modules.delete(file);
      if (error instanceof IdlModuleError) reportIdlError(context, error, meta.framework);
      else reportUnreadableIdl(context, error, meta.framework);
      // Reached in esbuild and webpack, where `this.error` only records the error: hand back an
      // empty module so the bundler reports the recorded error instead of parsing the IDL as JS.
      return { code: '', map: null };
    }
  }

  /** Emits openapi.json and openrpc.json (those that are on) for the `.idl` files of this build. */
  async function emitDocuments(context: UnpluginBuildContext) {
    if ((!options.openapi && !options.openrpc) || modules.size === 0) return;
    if (inViteDevServer()) return; // served by the dev middleware instead
    const loaded = [...modules.values()];
    const documents: BuiltDocument[] = [];
    if (options.openapi) {
      const { source, warnings } = await openApiDocument(loaded, options.openapi, diskCacheFolder());
      for (const warning of warnings) console.warn(`[${PLUGIN_NAME}] openapi: ${warning}`);
      documents.push({ fileName: options.openapi.fileName, source });
    }
    if (options.openrpc) {
      const { source, warnings } = await openRpcDocument(loaded, options.openrpc, diskCacheFolder());
      for (const warning of warnings) console.warn(`[${PLUGIN_NAME}] openrpc: ${warning}`);
      documents.push({ fileName: options.openrpc.fileName, source });
    }
    if (viteConfig?.build.ssr) {
      ssrDocuments = documents;
      return;
    }
    for (const { fileName, source } of documents) {
      if (meta.framework === 'esbuild') await writeEsbuildAsset(context, fileName, source);
      else context.emitFile({ type: 'asset', fileName, source });
    }
  }

  return {
    name: PLUGIN_NAME,
    enforce: 'pre',

    // esbuild would put the resolved runtime into this plugin's namespace, where nothing loads it;
    // esbuild gets its own resolver below, the webpack family its own aliases (webpack-family-resolve.ts).
    ...(meta.framework === 'esbuild' || WEBPACK_FAMILY.includes(meta.framework)
      ? {}
      : {
          resolveId: {
            filter: { id: new RegExp(`${GENERATED_IMPORT_FILTER.source}|^virtual:idl-rpc-server$`) },
            handler(id: string, importer: string | undefined) {
              if (id === SERVER_ENTRY_ID) return RESOLVED_SERVER_ENTRY_ID;
              if (id === TYPEBOX_IMPORT && meta.framework === 'vite' && isIdlId(importer)) {
                // Resolve as if this package imported it, through Vite, so that the dev server
                // serves the pre-bundled copy of this package's TypeBox (OPTIMIZED_TYPEBOX)
                // instead of TypeBox's hundreds of modules.
                const resolve = (this as unknown as ViteResolveContext).resolve;
                return resolve.call(this, id, resolveRuntimeFile(RUNTIME_IMPORT), { skipSelf: true });
              }
              return resolveGeneratedImport(id, importer) ?? null;
            },
          },
        }),

    load: {
      filter: { id: [IDL_ID_FILTER, /^\0idl-rpc-server$/] },
      handler(id) {
        if (id === RESOLVED_SERVER_ENTRY_ID) {
          if (!viteConfig || !options.server) return null;
          return serverEntryCode(viteConfig.root, options.server, options);
        }
        return loadIdl(this, id);
      },
    },

    async buildEnd() {
      await emitDocuments(this);
      // The dev server ends its build when it closes: the last edits' declarations and cache entries are written then.
      await Promise.all([deferredDeclarationWrites.flush(), deferredDiskWrites.flush()]);
    },

    esbuild: {
      loader: 'js',
      // Without it unplugin asks esbuild for every file's load (filter `.*`): a round trip into
      // JavaScript per module of the app (TypeBox alone is 200). esbuild's filters are Go regular
      // expressions (no lookahead): this one takes every `.idl` path, and the load hook's own filter
      // then leaves out `?raw`/`?url`; the query is not part of esbuild's path, so no `?` is matched here.
      onLoadFilter: /\.idl$/,
      setup(build) {
        addModuleFacade(build);
        build.onResolve({ filter: GENERATED_IMPORT_FILTER }, (args) => {
          const resolved = resolveGeneratedImport(args.path, args.importer);
          return resolved === undefined ? undefined : { path: resolved };
        });
      },
    },

    webpack(compiler) {
      compiler.options.module.rules.push(generatedImportsRule());
    },
    rspack(compiler) {
      compiler.options.module.rules.push(generatedImportsRule());
    },
    rsbuild: {
      setup(api) {
        api.modifyRspackConfig((config) => {
          config.module ??= {};
          config.module.rules ??= [];
          config.module.rules.push(generatedImportsRule());
        });
      },
    },

    vite: {
      config(_config, { command }) {
        return command === 'serve' ? devServerDependencyConfig() : undefined;
      },
      async configResolved(config) {
        viteConfig = config;
        if (config.command === 'serve') devFsAccess = await devServerFsAccess(config);
      },
      // The dev and preview servers' parts load when Vite starts one (Vite awaits these hooks before
      // it serves): a build, and every other bundler, never loads them.
      async configureServer(server) {
        devServer = server;
        const { configureDevServer } = await import('./vite-dev-server.js');
        configureDevServer(server, options, () => modules.keys(), sourceFiles, compile, diskCacheFolder);
      },
      hotUpdate({ file, modules }) {
        return idlHotUpdateModules(file, modules, this.environment.moduleGraph, sourceFiles);
      },
      async configurePreviewServer(server) {
        const { configurePreviewServer } = await import('./vite-preview.js');
        configurePreviewServer(server, options);
      },
      async writeBundle(outputOptions) {
        if (ssrDocuments.length === 0) return;
        const folder = outputOptions.dir ?? (outputOptions.file ? path.dirname(outputOptions.file) : viteConfig?.build.outDir);
        if (!folder) return;
        const documents = ssrDocuments;
        ssrDocuments = [];
        for (const { fileName, source } of documents) {
          const file = path.resolve(viteConfig?.root ?? '.', folder, fileName);
          await mkdir(path.dirname(file), { recursive: true });
          await writeIfChanged(file, source);
        }
      },
      async closeBundle() {
        // Only the client build starts the server build; the server build itself is an SSR build.
        if (viteConfig?.command !== 'build' || viteConfig.build.ssr || !options.server) return;
        const [{ buildServerEntry }, { default: vitePlugin }] = await Promise.all([import('./vite-preview.js'), import('./vite.js')]);
        await buildServerEntry(viteConfig, options.server, () => vitePlugin(userOptions) as Plugin);
      },
    },
  };
};

/**
 * Shows a text in the browser overlay of the Vite dev server. Vite's overlay has one kind, errors;
 * it covers the page until clicked away, and nothing else stops (Vite keeps the message for the
 * first page that connects when none is connected yet).
 */
function overlayOf(server: ViteDevServer): (message: string, location: { file: string; line?: number; column?: number }) => void {
  return (message, location) =>
    server.ws.send({
      type: 'error',
      err: {
        message,
        stack: '',
        plugin: PLUGIN_NAME,
        id: location.file,
        ...(location.line === undefined ? {} : { loc: { file: location.file, line: location.line, column: location.column ?? 1 } }),
      },
    });
}

/**
 * Whether the bundler reads the module's source map. esbuild and `vite build` read one only to write
 * maps of their own (their `sourcemap` options): without them, unplugin would still append the map to
 * esbuild's module as a base64 comment, which esbuild carries and scans for nothing (20-25 ms of a
 * build of the 10,008-line IDL, whose map is 0.37 MB), and Vite would hand it to Rolldown. The dev
 * server always serves maps; Rollup, Rolldown and the webpack family decide per output, after the load.
 */
function readsSourceMaps(context: UnpluginBuildContext, viteConfig: ResolvedConfig | undefined): boolean {
  const native = context.getNativeBuildContext?.();
  if (native?.framework === 'esbuild') return Boolean(native.build.initialOptions.sourcemap);
  if (viteConfig?.command === 'build') return Boolean(viteConfig.build.sourcemap);
  return true;
}

/**
 * esbuild writes emitted assets only with `outdir`; with `outfile` it silently drops them, so the
 * document goes into the folder of `outfile` here.
 */
async function writeEsbuildAsset(context: UnpluginBuildContext, fileName: string, source: string): Promise<void> {
  const native = context.getNativeBuildContext?.();
  if (native?.framework !== 'esbuild') return;
  const { outdir, outfile } = native.build.initialOptions;
  if (outdir) {
    context.emitFile({ type: 'asset', fileName, source });
  } else if (outfile) {
    const file = path.join(path.dirname(path.resolve(outfile)), fileName);
    await mkdir(path.dirname(file), { recursive: true });
    await writeIfChanged(file, source);
  } else {
    console.warn(`[${PLUGIN_NAME}] esbuild has neither outdir nor outfile: ${fileName} not written`);
  }
}
