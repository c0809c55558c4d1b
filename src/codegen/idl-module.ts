/**
 * Turns one `.idl` source into what a bundler needs: the plain JavaScript module, the `.d.ts` that
 * types it for editors and `tsc`, and the checked model (for openapi.json). Compile errors come back
 * as data with file:line:column, so each shell (the plugin per bundler, `idlrpc -dts`) can report
 * them its own way. Below both shells: neither imports the other.
 */
import path from 'node:path';
import { tryCompileIdl } from '../idl/compile.js';
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlModel } from '../idl/model.js';
import type { GeneratedPart } from './declarations.js';
import { RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT } from '../own-package.js';
import { dtsFileOf } from './declaration-files.js';
import { IdlModuleError } from './idl-module-error.js';
import { generateModule } from './module.js';
import { once, ready } from './once.js';
import { relativeSourcePath, sourceMapOf } from './source-map.js';

export { dtsFileOf } from './declaration-files.js';
export { IdlModuleError } from './idl-module-error.js';

export interface CompiledIdlModule {
  file: string;
  /** Every file the module was compiled from: `file`, then the files it imports (to watch them). */
  files: string[];
  model: IdlModel;
  js: string;
  /** The source map of `js` (JSON), pointing into the IDL files, whose text it embeds. */
  jsMap: string;
  /** The declarations (without a `sourceMappingURL` comment: see declaration-files.ts); with `reuse`, made when first read. */
  dts: string;
  /** The declaration map of `dts` (JSON), for a `.d.ts` written beside `file`; with `reuse`, made when first read. */
  dtsMap: string;
  /** The text of each of `files` as compiled (by file name), so a cache can tell when one changed. */
  sources: ReadonlyMap<string, string>;
  /** When printed in parts (`CompileOptions.partImport`): the modules `js` re-exports. */
  parts?: CompiledModulePart[];
}

/** One part of a module printed in parts, with its source map. */
export interface CompiledModulePart {
  part: GeneratedPart;
  js: string;
  /** The source map of `js` (JSON). */
  jsMap: string;
}

/** How a module is generated: see `GenerateModuleOptions.reuse` and `.partImport`. */
export interface ModuleGeneration {
  reuse?: boolean;
  partImport?: (part: GeneratedPart) => string;
}

/** Where imported files are read from: relative names against `cwd`, each file at most `maxImportedBytes`. */
export interface ImportReading {
  cwd?: string;
  maxImportedBytes?: number;
}

/**
 * Compiles an `.idl` source text with the files it imports (read from disk); throws
 * {@link IdlModuleError} for a broken file. `generation`: see `GenerateModuleOptions.reuse` (the
 * file is compiled again and again) and `.partImport` (the module in parts).
 */
export function compileIdlSource(
  source: string,
  file: string,
  reading: ImportReading = {},
  generation: ModuleGeneration = {},
): CompiledIdlModule {
  const { reuse = false, partImport } = generation;
  const host = nodeFileHost({ cwd: reading.cwd, maxBytes: reading.maxImportedBytes });
  const result = tryCompileIdl(source, file, { host, reuse });
  if (!result.model) throw new IdlModuleError(file, result.diagnostics, result.sources, [...result.files, ...result.unreadableImports]);
  const model = result.model;
  const generated = generateModule(model, {
    runtimeImport: RUNTIME_CORE_IMPORT,
    runtimeClientImport: RUNTIME_CLIENT_IMPORT,
    // The base name keeps the generated header the same on every machine.
    sourceFile: path.basename(file),
    namespaceImport: (namespace) => relativeImport(file, declaringFile(model, namespace)),
    reuse,
    partImport,
  });
  const { js, mappings } = generated;
  // Both maps lie beside the `.idl` (the module's id is the `.idl` itself); the spans name files as the compiler does.
  const folder = path.dirname(path.resolve(reading.cwd ?? '.', file));
  const sourcePath = (sourceFile: string) => relativeSourcePath(folder, path.resolve(reading.cwd ?? '.', sourceFile));
  const base = path.basename(file);
  const jsMap = sourceMapOf(mappings.js, { file: base, sourcePath, contentOf: (sourceFile) => result.sources.get(sourceFile) });
  // With `reuse` (a dev server), the declarations and their map are made when first read (generateModule prints them then).
  const makeDtsMap = () => JSON.stringify(sourceMapOf(generated.mappings.dts, { file: dtsFileOf(base), sourcePath }));
  const dtsMap = reuse ? once(makeDtsMap) : ready(makeDtsMap());
  const parts = generated.parts?.map(({ part, js: partJs, mappings: partMappings }) => ({
    part,
    js: partJs,
    jsMap: JSON.stringify(sourceMapOf(partMappings, { file: base, sourcePath, contentOf: (sourceFile) => result.sources.get(sourceFile) })),
  }));
  const compiled = {
    file,
    files: result.files,
    model,
    js,
    jsMap: JSON.stringify(jsMap),
    sources: result.sources,
    ...(parts ? { parts } : {}),
  };
  return withDeclarations(compiled, generated, dtsMap);
}

/**
 * `compiled` with the declarations of `generated` and their map from `dtsMap`. Made apart from
 * `compileIdlSource`: getters made there would hold everything its scope holds (the compile's
 * result, the generation) for as long as the module lives.
 */
function withDeclarations(
  compiled: Omit<CompiledIdlModule, 'dts' | 'dtsMap'>,
  generated: { readonly dts: string },
  dtsMap: () => string,
): CompiledIdlModule {
  return {
    ...compiled,
    get dts() {
      return generated.dts;
    },
    get dtsMap() {
      return dtsMap();
    },
  };
}

/** The file that declares an imported namespace: the first of the program's files in it. */
function declaringFile(model: IdlModel, namespace: string): string {
  const declaring = model.files.find((candidate) => candidate.namespace === namespace);
  if (!declaring) throw new Error(`internal error: no file declares the namespace '${namespace}'`);
  return declaring.fileName;
}

/**
 * The specifier importing `target` from `importer`, e.g. `./common.idl` or `../types/money.idl`:
 * the other `.idl` file's own module, so that its error classes are the same classes everywhere.
 */
function relativeImport(importer: string, target: string): string {
  const relative = path.relative(path.dirname(importer), target).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
