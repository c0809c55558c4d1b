/**
 * esbuild: the first `.idl` a build imports gets a two-line facade module in front of the generated one,
 *
 *   import { Type as typeBox } from '@sinclair/typebox';
 *   export * from '/abs/checkout.idl';
 *
 * so that esbuild starts reading TypeBox (two hundred modules, read by esbuild's own threads with no
 * call into JavaScript) while the plugin compiles the IDL on the JavaScript thread. Without it
 * esbuild learns of TypeBox only from the generated module, after the compile: in a cold build of
 * the checkout app the two ran one after the other (docs/benchmarks.md, "the esbuild facade"). Other
importers of that file, and other `.idl` files, import the generated modules directly: the facade
re-exports the one module, so they all see the same exports.
 *
 * What the bundle holds does not change: every generated module imports `Type` (the schemas), the
 * facade's import is one the generated code makes anyway, and the facade itself has no code. The
 * build's metafile lists the facade as an input of its own (namespace `idl-rpc-facade`). Only
 * bundling builds get it: without `bundle`, esbuild would write the facade as the output.
 */
import path from 'node:path';
import type { PluginBuild } from 'esbuild';
import { TYPEBOX_IMPORT } from './runtime-paths.js';

/** The namespace of the facades (shown in esbuild's metafile and messages). */
export const FACADE_NAMESPACE = 'idl-rpc-facade';

/** The `pluginData` mark of the resolution the facade asks esbuild for (its own hook must let it pass). */
const RESOLVING_FOR_FACADE = 'idlRpcFacade';

/**
 * Puts a facade in front of the first `.idl` each bundling build imports (see the file comment).
 * One is enough: TypeBox is read from then on. Every further one would cost three more calls into
 * JavaScript, queued behind the compiles (an app of twenty `.idl` files built 4-6% slower with one
 * facade per file).
 */
export function addModuleFacade(build: PluginBuild): void {
  if (!build.initialOptions.bundle) return;
  let given = false;
  build.onStart(() => {
    given = false;
  });
  build.onResolve({ filter: /\.idl$/ }, async (args) => {
    if (given || args.namespace === FACADE_NAMESPACE || args.pluginData?.[RESOLVING_FOR_FACADE]) return undefined;
    given = true;
    // Resolved as esbuild and the other plugins would (aliases, packages); anything but a file is left to them.
    const resolved = await build.resolve(args.path, {
      kind: args.kind,
      importer: args.importer,
      namespace: args.namespace,
      resolveDir: args.resolveDir,
      pluginData: { [RESOLVING_FOR_FACADE]: true },
    });
    if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file') return undefined;
    return { path: resolved.path, namespace: FACADE_NAMESPACE, watchFiles: [resolved.path] };
  });
  build.onLoad({ filter: /\.idl$/, namespace: FACADE_NAMESPACE }, (args) => ({
    contents: facadeCode(args.path),
    resolveDir: path.dirname(args.path),
    loader: 'js',
  }));
}

/** The facade of the generated module of `file` (an absolute path). */
export function facadeCode(file: string): string {
  return `import { Type as typeBox } from ${JSON.stringify(TYPEBOX_IMPORT)};\nexport * from ${JSON.stringify(file)};\n`;
}
