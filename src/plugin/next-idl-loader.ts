/**
 * The webpack-style loader behind `unplugin-idl-rpc/next`, for Turbopack (`turbopack.rules`) and for
 * webpack (`next build --webpack`) alike: Turbopack runs webpack loaders but no unplugin, and one
 * loader gives both bundlers the same module, `.d.ts` files and documents.
 *
 * It compiles the `.idl` through the plugin's compile cache, writes `<file>.idl.d.ts` beside it (and
 * beside each imported file with a namespace), has the bundler watch every file it was compiled
 * from, and records the file for the documents written after the production compile
 * (next-documents.ts): a Turbopack loader has neither `emitFile` nor an end-of-build hook.
 */
import path from 'node:path';
import { declarationFiles } from '../codegen/declaration-files.js';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { writeIfChanged } from '../atomic-write.js';
import { cacheFolder } from './cache-folder.js';
import { type CachedIdlModule, compileIdlFile } from './compiler.js';
import { writeImportedDts } from './imported-dts.js';
import { RECORD_FOLDER, recordLoadedIdl } from './next-documents.js';
import { type IdlRpcPluginOptions, resolveOptions } from './options.js';
import { IdlFileReadError } from './read-idl-file.js';

/** What withIdlRpc passes to the loader (JSON: Turbopack serializes loader options). */
export interface IdlLoaderOptions {
  plugin: IdlRpcPluginOptions;
  /** Next's build folder (`distDir`), relative to the project, where the loaded `.idl` files are recorded. */
  distDir: string;
}

/** The part of the loader context that both Turbopack and webpack give a loader. */
export interface IdlLoaderContext {
  resourcePath: string;
  rootContext: string;
  getOptions(): IdlLoaderOptions;
  addDependency(file: string): void;
  emitWarning(warning: Error): void;
  async(): (error: Error | null, code?: string, map?: string) => void;
}

/** Compiles the `.idl` at `this.resourcePath` into JavaScript. */
export default function idlRpcLoader(this: IdlLoaderContext, _source: string): void {
  const callback = this.async();
  loadIdl(this).then(
    ({ js, jsMap }) => callback(null, js, jsMap),
    (error: unknown) => callback(loaderError(error)),
  );
}

async function loadIdl(context: IdlLoaderContext): Promise<CachedIdlModule> {
  const { plugin, distDir } = context.getOptions();
  const options = resolveOptions(plugin);
  const projectDir = context.rootContext || process.cwd();
  const folder = cacheFolder(projectDir, options.cache, options.cacheDir);
  const compile = (file: string) => compileIdlFile(file, options.maxIdlBytes, folder);
  const file = context.resourcePath;
  try {
    const compiled = await compile(file);
    for (const source of compiled.files) context.addDependency(source);
    if (options.dts) {
      for (const [output, text] of declarationFiles(file, compiled, options.declarationMap)) await writeIfChanged(output, text);
      const problems = await writeImportedDts(compiled.programFiles, compile, () => true, options.declarationMap);
      for (const problem of problems) context.emitWarning(new Error(problem));
    }
    await recordLoadedIdl(path.resolve(projectDir, distDir, RECORD_FOLDER), file);
    return compiled;
  } catch (error) {
    // Watch the broken files too, so that fixing any of them rebuilds (next dev).
    if (error instanceof IdlModuleError) for (const source of error.files) context.addDependency(source);
    else if (error instanceof IdlFileReadError) context.addDependency(file);
    throw error;
  }
}

/**
 * The error the bundler shows: for a broken `.idl` its `file:line:column: message` lines and code
 * frame in the message itself (Next prints loader errors' messages, not `loc`), with no stack of the
 * loader's own frames to hide them.
 */
function loaderError(error: unknown): Error {
  if (!(error instanceof IdlModuleError || error instanceof IdlFileReadError))
    return error instanceof Error ? error : new Error(String(error));
  const reported = new Error(error.message);
  reported.name = 'IdlRpcError';
  reported.stack = `${reported.name}: ${error.message}`;
  return reported;
}
