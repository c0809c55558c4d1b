/**
 * The CLI's output: a self-contained directory of TypeScript (docs/generator.md).
 *
 *     types.ts     enums, struct interfaces, declared errors, TypeBox schemas, compiled validators
 *     client.ts    one <Interface>Client class per interface
 *     server.ts    handler interfaces, the embedded IDL JSON, create<Namespace>Server
 *     index.ts     re-exports the three
 *     idl.json     the IDL as JSON (what `rpc-idl` serves)
 *     runtime/     the runtime files generated code needs (RUNTIME_MANIFEST), copied (they import only
 *                  @sinclair/typebox and node:http)
 *     package.json, tsconfig.json   only on request
 *     *.ts.map     with `sourceMaps`: a source map beside each of types.ts, client.ts and server.ts,
 *                  pointing at the IDL (what stack traces and debuggers show)
 *
 * An IDL that imports files of other namespaces (docs/idl.md, "Several files") gets one folder per
 * namespace, each with its own types.ts, client.ts, server.ts and index.ts (only the root
 * namespace's server.ts has `create<Namespace>Server`, serving every interface); the folders import
 * each other as `../<namespace>/index.js`, and share idl.json and runtime/ at the top. A namespace
 * named like a folder the output uses itself (`runtime`, ...) gets `runtime_/` (namespace-folders.ts).
 *
 * With emit `js+dts`, each of those modules is written as JavaScript with its declarations beside it
 * (`types.js` and `types.d.ts`, ...; maps for the `.js` files), and `runtime/` holds the runtime as
 * this package ships it compiled: an app's `tsc` then reads declarations only.
 *
 * Module styles differ only in relative import suffixes and in the manifest and compiler config:
 * `esm-node` and `cjs` write `./types.js` (TypeScript maps it to `types.ts`; Node needs the suffix
 * in ESM and accepts it in CommonJS), `esm-bundler` writes `./types`. `cjs` output is the same
 * TypeScript compiled with `module: CommonJS` and `"type": "commonjs"`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IdlModel } from '../idl/model.js';
import { ownManifest, ownPackageRoot } from '../own-package.js';
import { type Declaration, GENERATED_PARTS, type GeneratedPart, type ModuleId } from './declarations.js';
import { generateDeclarations, generatedHeader } from './generate.js';
import { namespaceFolders } from './namespace-folders.js';
import { namespaceOfModuleId, namespacesOf } from './namespace-view.js';
import { CodegenError } from './names.js';
import { printFile } from './print.js';
import { runtimeSources } from './runtime-manifest.js';
import { sourceMapOf } from './source-map.js';

export type ModuleStyle = 'esm-node' | 'esm-bundler' | 'cjs';
export const MODULE_STYLES: readonly ModuleStyle[] = ['esm-node', 'esm-bundler', 'cjs'];

/**
 * What the output is written as: `ts`, TypeScript to compile with the app; `js+dts`, JavaScript with
 * a declaration file beside each module, so that the app's `tsc` reads declarations only (as
 * protobuf-es's `js+dts` target: a large API's implementation is no longer type-checked with the app).
 */
export type OutputEmit = 'ts' | 'js+dts';
export const OUTPUT_EMITS: readonly OutputEmit[] = ['ts', 'js+dts'];

/** The files each module of the output is written as, by emit. */
const EMITTED_EXTENSIONS: Record<OutputEmit, readonly ('.ts' | '.js' | '.d.ts')[]> = { ts: ['.ts'], 'js+dts': ['.js', '.d.ts'] };

export interface GenerateFilesOptions {
  /** Default `esm-node`. */
  moduleStyle?: ModuleStyle;
  /** Default `ts`; `js+dts` needs an ES module style. */
  emit?: OutputEmit;
  /** The IDL file named in the headers (a base name keeps the output machine-independent). */
  sourceFile: string;
  /**
   * Import the runtime from this package specifier (`<runtimeImport>/core` and `<runtimeImport>/client`)
   * instead of copying it into `runtime/`.
   */
  runtimeImport?: string;
  /** Also write `package.json`. */
  packageJson?: boolean;
  /** Also write `tsconfig.json`. */
  tsconfig?: boolean;
  /**
   * Also write a source map beside each generated `.ts` (`client.ts.map`, linked from `client.ts`),
   * pointing at the IDL. `sourcePath` names an IDL file (as the compiler names it) as seen from a
   * generated file (its path in the output, with `/`): the output's location is the caller's.
   */
  sourceMaps?: { sourcePath(idlFile: string, generatedFile: string): string };
}

/**
 * Generates the output directory's files in memory: relative path (with `/`) -> content, sorted by
 * path. The same model and options always give byte-identical files.
 */
export function generateTypeScriptFiles(model: IdlModel, options: GenerateFilesOptions): Map<string, string> {
  return generateOutputFiles(model, options);
}

/**
 * `generateTypeScriptFiles`, with the runtime copied from `runtimeDir` (default: this package's
 * `runtime/`). Not part of the package's API: tests point it at a changed copy of the runtime.
 */
export function generateOutputFiles(model: IdlModel, options: GenerateFilesOptions, runtimeDir?: string): Map<string, string> {
  const style = options.moduleStyle ?? 'esm-node';
  if (!MODULE_STYLES.includes(style)) throw new CodegenError(`Unknown module style '${style}' (expected ${MODULE_STYLES.join(', ')})`);
  const emit = options.emit ?? 'ts';
  if (!OUTPUT_EMITS.includes(emit)) throw new CodegenError(`Unknown emit '${emit}' (expected ${OUTPUT_EMITS.join(', ')})`);
  // The compiled runtime the output copies is this package's, which is ES modules.
  if (emit === 'js+dts' && style === 'cjs')
    throw new CodegenError(`emit 'js+dts' writes ES modules: use the module style esm-node or esm-bundler`);
  const suffix = style === 'esm-bundler' ? '' : '.js';
  const header = generatedHeader(options.sourceFile);
  const files = new Map<string, string>();
  const namespaces = namespacesOf(model);
  const folders = namespaceFolders(namespaces.map((namespace) => namespace ?? model.namespace));
  const folderOf = (namespace: string | undefined) => (namespaces.length === 1 ? '' : `${folders.get(namespace ?? model.namespace)}/`);

  let programJson: unknown;
  for (const namespace of namespaces) {
    const folder = folderOf(namespace);
    const up = folder === '' ? './' : '../';
    // Generated code needs only the Node-free part of the runtime, so a browser build of the output
    // never meets node:http; the runtime's index (with the Node adapters) is for the user's server.
    const runtimePath = (entry: 'core' | 'client') =>
      options.runtimeImport === undefined ? `${up}runtime/${entry}${suffix}` : `${options.runtimeImport}/${entry}`;
    const { declarations, idlJson } = generateDeclarations(model, namespace);
    // Every namespace's module is generated from the same program, so any one has its JSON form.
    programJson = idlJson;
    for (const part of GENERATED_PARTS) {
      const importPath = (module: ModuleId): string | undefined => {
        if (module === part) return undefined;
        if (module === 'typebox') return '@sinclair/typebox';
        if (module === 'runtime') return runtimePath('core');
        if (module === 'runtimeClient') return runtimePath('client');
        const imported = namespaceOfModuleId(module);
        if (imported !== undefined) return `../${folderOf(imported || undefined)}index${suffix}`;
        return `./${module}${suffix}`;
      };
      const own = declarations.filter((declaration) => declaration.part === part);
      writePart(files, { folder, part, own, header, importPath, emit, sourceMaps: options.sourceMaps });
    }
    const index = `${header}\n${GENERATED_PARTS.map((part) => `export * from './${part}${suffix}';\n`).join('')}`;
    for (const extension of EMITTED_EXTENSIONS[emit]) files.set(`${folder}index${extension}`, index);
  }
  files.set('idl.json', JSON.stringify(programJson, null, 2) + '\n');
  if (options.runtimeImport === undefined) {
    const sources = runtimeSources(runtimeDir ?? path.join(ownPackageRoot(), 'runtime'));
    if (emit === 'ts') for (const [name, text] of sources) files.set(`runtime/${name}`, copiedRuntimeFile(name, text, suffix));
    else for (const [name, text] of compiledRuntimeFiles(sources.map(([name]) => name))) files.set(`runtime/${name}`, text);
  }
  if (options.packageJson) files.set('package.json', packageJson(model, style, options.sourceFile, emit));
  if (options.tsconfig) files.set('tsconfig.json', tsconfig(style, header, emit));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** One part of a namespace's output (`types`, `client`, `server`), as its emit writes it. */
function writePart(
  files: Map<string, string>,
  request: {
    folder: string;
    part: GeneratedPart;
    own: readonly Declaration[];
    header: string;
    importPath: (module: ModuleId) => string | undefined;
    emit: OutputEmit;
    sourceMaps: GenerateFilesOptions['sourceMaps'];
  },
): void {
  const { folder, part, own, header, importPath, sourceMaps } = request;
  for (const extension of EMITTED_EXTENSIONS[request.emit]) {
    const fileName = `${folder}${part}${extension}`;
    if (own.length === 0) {
      // A namespace without interfaces has no client or server: the empty file must still be a module.
      files.set(fileName, `${header}\nexport {};\n`);
      continue;
    }
    const target = extension === '.ts' ? 'ts' : extension === '.js' ? 'js' : 'dts';
    const printed = printFile(own, { target, header, importPath });
    // Declarations get no map: what runs (and what stack traces show) is the code.
    if (!sourceMaps || target === 'dts') {
      files.set(fileName, printed.text);
      continue;
    }
    const base = `${part}${extension}`;
    const map = sourceMapOf(printed.mappings, { file: base, sourcePath: (idlFile) => sourceMaps.sourcePath(idlFile, fileName) });
    files.set(fileName, `${printed.text}//# sourceMappingURL=${base}.map\n`);
    files.set(`${fileName}.map`, `${JSON.stringify(map)}\n`);
  }
}

/**
 * The runtime as this package ships it compiled (`dist/runtime/`): for each of `names` (the copied
 * runtime's `.ts` files), its `.js` and `.d.ts`, headed as generated and without their source map
 * comments (the maps point at files the output does not have).
 */
function compiledRuntimeFiles(names: readonly string[]): [string, string][] {
  const compiledDir = path.join(ownPackageRoot(), 'dist', 'runtime');
  return names.flatMap((name) =>
    ['.js', '.d.ts'].map((extension): [string, string] => {
      const compiledName = name.replace(/\.ts$/, extension);
      const file = path.join(compiledDir, compiledName);
      if (!existsSync(file)) throw new CodegenError(`Cannot copy the runtime: ${file} is missing from this installation`);
      const text = readFileSync(file, 'utf8').replace(/^\/\/# sourceMappingURL=.*\n?/m, '');
      return [compiledName, `${generatedHeader(`unplugin-idl-rpc runtime/${name}`)}\n${text}`];
    }),
  );
}

function copiedRuntimeFile(name: string, text: string, suffix: string): string {
  const header = generatedHeader(`unplugin-idl-rpc runtime/${name}`);
  // Only relative specifiers change; package imports (TypeBox, node:http) stay as they are.
  const rewritten = suffix === '.js' ? text : text.replace(/(from\s+'\.{1,2}\/[^']*?)\.js'/g, `$1${suffix}'`);
  return `${header}\n${rewritten}`;
}

function packageJson(model: IdlModel, style: ModuleStyle, sourceFile: string, emit: OutputEmit): string {
  const own = ownManifest();
  const base = {
    name: `${model.namespace.toLowerCase().replace(/_/g, '-')}-rpc`,
    version: '0.0.0',
    private: true,
    description: `Generated by idlrpc ${own.version} from ${sourceFile}. Do not edit.`,
    type: style === 'cjs' ? 'commonjs' : 'module',
    sideEffects: false,
  };
  const dependencies = { '@sinclair/typebox': own.dependencies['@sinclair/typebox'] };
  const manifest =
    emit === 'ts'
      ? {
          ...base,
          scripts: { build: 'tsc' },
          dependencies,
          devDependencies: { '@types/node': own.devDependencies['@types/node'], typescript: own.devDependencies.typescript },
        }
      : // Nothing to build: the package is its own output.
        { ...base, types: './index.d.ts', exports: { '.': { types: './index.d.ts', default: './index.js' } }, dependencies };
  return JSON.stringify(manifest, null, 2) + '\n';
}

function tsconfig(style: ModuleStyle, header: string, emit: OutputEmit): string {
  const modules =
    style === 'esm-node'
      ? { module: 'NodeNext', moduleResolution: 'NodeNext' }
      : style === 'esm-bundler'
        ? { module: 'ESNext', moduleResolution: 'Bundler' }
        : { module: 'CommonJS' };
  const config = {
    compilerOptions: {
      target: 'ES2022',
      ...modules,
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      strict: true,
      // js+dts: `tsc -p` checks the declarations (nothing to emit); skipLibCheck would skip them all.
      ...(emit === 'ts' ? { declaration: true, skipLibCheck: true, outDir: 'dist' } : { noEmit: true }),
    },
    include: ['**/*.ts'],
    exclude: ['dist', 'node_modules'],
  };
  // tsconfig.json may hold comments, so it carries the header like the TypeScript files.
  return `${header}\n${JSON.stringify(config, null, 2)}\n`;
}
