/**
 * The bundler plugin's output: ONE plain-JavaScript module for `import ... from './x.idl'` (for a
 * large IDL, an index and its three parts: `partImport`) plus the `.d.ts` that types it (bundlers do
 * not strip TypeScript from a plugin's output).
 */
import type { IdlModel } from '../idl/model.js';
import { type Declaration, GENERATED_PARTS, type GeneratedPart, isGeneratedPart, type ModuleId } from './declarations.js';
import { generateDeclarations, generatedHeader } from './generate.js';
import { namespaceOfModuleId } from './namespace-view.js';
import { CodegenError } from './names.js';
import { once, ready } from './once.js';
import { type PrintedFile, printFile } from './print.js';
import type { Mapping } from './source-map.js';

export interface GenerateModuleOptions {
  /** Specifier of the runtime, e.g. `unplugin-idl-rpc/runtime`. */
  runtimeImport: string;
  /** Specifier of the browser-safe client runtime, e.g. `unplugin-idl-rpc/runtime/client`. */
  runtimeClientImport: string;
  /**
   * Specifier of TypeBox in `js` (the schemas call `Type.*`). Default `@sinclair/typebox`. The `dts`
   * takes TypeBox's types (`TSchema`) from `runtimeImport`, which re-exports them.
   */
  typeboxImport?: string;
  /** The IDL file named in the header (pass a base name to keep the output machine-independent). */
  sourceFile: string;
  /**
   * The specifier of the module of another namespace the IDL imports (docs/idl.md, "Several
   * files"), e.g. `./common.idl`: the plugin's module of the file declaring it.
   */
  namespaceImport?: (namespace: string) => string;
  /**
   * `sourceFile` is generated again and again (a dev server, a watch build): reuse the phases of its
   * earlier generations with `reuse` whose inputs are unchanged, and keep this one's for the next
   * (phase-memo.ts). Off by default: keeping costs a generation that is never followed by another
   * (a build) 3-6% of its time, and holds memory (about 20 MB for a 10,000-line IDL).
   */
  reuse?: boolean;
  /**
   * Print the module in parts, one per part of the CLI layout (types, client, server), each imported
   * by the specifier this gives (e.g. `./checkout.idl?idlrpc-part=types`); `js` is then an index that
   * re-exports them. Bundlers parse the modules of a build in parallel, one module on one thread:
   * a large IDL's module in three parts is read on every core (docs/plugin.md, "Large modules in parts").
   */
  partImport?: (part: GeneratedPart) => string;
}

/** One part of a module printed in parts (`GenerateModuleOptions.partImport`). */
export interface GeneratedModulePart {
  part: GeneratedPart;
  js: string;
  /** Where the text of `js` comes from in the IDL. */
  mappings: Mapping[];
}

/** The plugin module of an IDL. */
export interface GeneratedModule {
  /** The module: plain JavaScript, no TypeScript syntax. */
  js: string;
  /** Its types (with `reuse`, printed when first read). */
  dts: string;
  /** Where the text of each comes from in the IDL, for their source maps (`sourceMapOf`, source-map.ts). */
  mappings: { js: Mapping[]; dts: Mapping[] };
  /** With `partImport`: the parts `js` re-exports. */
  parts?: GeneratedModulePart[];
}

/** Generates the plugin module of an IDL: `js` (no TypeScript syntax) and `dts` (its types). */
export function generateModule(model: IdlModel, options: GenerateModuleOptions): GeneratedModule {
  const { declarations } = generateDeclarations(model, undefined, options.reuse ? options.sourceFile : undefined);
  const paths: Record<Exclude<ModuleId, `namespace:${string}`>, string | undefined> = {
    typebox: options.typeboxImport ?? '@sinclair/typebox',
    runtime: options.runtimeImport,
    runtimeClient: options.runtimeClientImport,
    types: undefined,
    client: undefined,
    server: undefined,
  };
  const importPath = (module: ModuleId) => {
    const namespace = namespaceOfModuleId(module);
    if (namespace === undefined) return paths[module as keyof typeof paths];
    if (!options.namespaceImport) throw new CodegenError(`no module given for the imported namespace '${namespace}'`);
    return options.namespaceImport(namespace);
  };
  const header = generatedHeader(options.sourceFile);
  const print = (target: 'js' | 'dts', importOf: (module: ModuleId) => string | undefined) =>
    printFile(declarations, { target, header, importPath: importOf });
  const { partImport } = options;
  const parts = partImport ? printParts(declarations, header, importPath, partImport) : undefined;
  const js = parts && partImport ? { text: indexOfParts(header, parts, partImport), mappings: [] } : print('js', importPath);
  // The declarations take TypeBox's types from the runtime, which re-exports them: the app need not
  // resolve TypeBox itself (pnpm installs it below this package only).
  const printDts = () => print('dts', (module) => (module === 'typebox' ? options.runtimeImport : importPath(module)));
  // With `reuse` (a dev server), printed when first read: the module is served first and the `.d.ts`
  // written after. Not otherwise: until then the declarations stay in memory (a 10,000-struct
  // `extends` chain's ran out of a 256 MB heap while the next output was generated).
  const generated = withDeclarations(js, options.reuse ? once(printDts) : ready(printDts()));
  if (parts) generated.parts = parts;
  return generated;
}

/** Each part's declarations as a module of its own, importing the others' by `partImport`. */
function printParts(
  declarations: readonly Declaration[],
  header: string,
  importPath: (module: ModuleId) => string | undefined,
  partImport: (part: GeneratedPart) => string,
): GeneratedModulePart[] {
  return GENERATED_PARTS.map((part) => {
    const own = declarations.filter((declaration) => declaration.part === part);
    const importOf = (module: ModuleId) =>
      module === part ? undefined : isGeneratedPart(module) ? partImport(module) : importPath(module);
    const printed = printFile(own, { target: 'js', header, importPath: importOf });
    // A part with nothing in it (no interfaces: no client, no server) must still be a module.
    return { part, js: own.length === 0 ? `${header}\nexport {};\n` : printed.text, mappings: printed.mappings };
  });
}

/** The module that re-exports every part: what `import ... from './x.idl'` sees. */
function indexOfParts(header: string, parts: readonly GeneratedModulePart[], partImport: (part: GeneratedPart) => string): string {
  return `${header}\n${parts.map(({ part }) => `export * from ${JSON.stringify(partImport(part))};\n`).join('')}`;
}

/**
 * The module of `js`, its declarations given by `dts`. Made apart from `generateModule`: getters made
 * there would hold everything its scope holds (the generation's declarations) for as long as the
 * module lives; here they hold `dts` alone.
 */
function withDeclarations(js: PrintedFile, dts: () => PrintedFile): GeneratedModule {
  return {
    js: js.text,
    get dts() {
      return dts().text;
    },
    mappings: {
      js: js.mappings,
      get dts() {
        return dts().mappings;
      },
    },
  };
}
