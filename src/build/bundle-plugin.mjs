/**
 * After `tsc`: the plugin (dist/src/plugin/) as a few bundled files instead of some 350 modules.
 *
 * Every bundler process loads the plugin, and its first compile loads the compiler with `import()`
 * (src/plugin/compiler.ts). As `tsc` emits them, those are about 50 modules for the plugin's shell
 * and 300 for the compiler (ours and TypeBox's 218 files), which Node reads and compiles one by
 * one: some 25 ms on every start and 120 ms on the first compile, more than a small app's whole
 * build with pre-generated code. Bundled, they load in a fraction of that.
 *
 * One esbuild build with code splitting, written over dist/src/plugin/:
 * - entries: the package's plugin entries (`unplugin-idl-rpc/vite` and the others), the files
 *   loaded by path (the Next.js loader) and the modules the plugin loads with `import()`; code they
 *   share goes to `chunk-<hash>.js` files beside them;
 * - the runtime modules (dist/runtime/) that the entries import statically stay imports of their
 *   own files, so that the plugin and an app's server, which a dev server runs in the same process,
 *   share one copy of each (one `IdlRpcError` class); the rest of dist/src/ is bundled;
 * - of packages, only our own small dependencies are bundled (TypeBox, Parsimmon, the source-map
 *   helpers) and unplugin with its own; the others (the bundlers) stay imports. Each entry calls its
 *   host's `create<Host>Plugin`, so its bundle holds that host's shell of unplugin alone (importing
 *   all of unplugin was some 20 ms of every bundler process's start), except the webpack, Rspack and
 *   Rsbuild entries: unplugin's shells for those hand the bundler loader files by their path inside
 *   unplugin's package, and so import unplugin from there;
 * - the plugin's other emitted `.js` files, now inside the bundles, are removed (their `.d.ts` stay:
 *   the entries' types refer to them).
 *
 *   node src/build/bundle-plugin.mjs      (run by `npm run build`)
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pluginDir = path.join(repoRoot, 'dist', 'src', 'plugin');
const runtimeDir = path.join(repoRoot, 'dist', 'runtime');

/** Loaded by file path rather than imported: Next.js runs its loaders by path. */
const LOADED_BY_PATH = ['next-idl-loader.js'];
/**
 * Packages whose code goes into the bundles: the compiler's, loaded only with it, and unplugin. What
 * a bundled package imports is bundled too (unplugin's own dependencies): as imports they would have
 * to resolve from this package, which pnpm does not allow for a dependency of a dependency.
 */
const BUNDLED_PACKAGES = ['@sinclair/typebox', 'parsimmon', '@jridgewell/sourcemap-codec', 'yaml', 'unplugin'];
/** The entries whose unplugin shell names loader files inside unplugin's package (see above). */
const ENTRIES_IMPORTING_UNPLUGIN = ['webpack.js', 'rspack.js', 'rsbuild.js'];

/** The plugin files of the package's `exports`, and the files loaded by path. */
function shellEntries() {
  const { exports } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const targets = Object.values(exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target) => target.startsWith('./dist/src/plugin/'))
    .map((target) => path.join(repoRoot, target));
  return [...targets, ...LOADED_BY_PATH.map((name) => path.join(pluginDir, name))];
}

/** esbuild's module graph of the plugin, as `tsc` emitted it (relative imports only). */
async function moduleGraph(entries) {
  const { metafile } = await build({
    entryPoints: entries,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: path.join(repoRoot, 'dist', '.plugin-graph'),
    logLevel: 'silent',
  });
  return metafile.inputs;
}

/** The modules reached from `entries` through the edges of `kinds`, as absolute paths. */
function reachable(inputs, entries, kinds) {
  const reached = new Set();
  const pending = entries.map((file) => path.relative(repoRoot, file));
  while (pending.length > 0) {
    const input = pending.pop();
    if (reached.has(input)) continue;
    reached.add(input);
    for (const edge of inputs[input]?.imports ?? []) if (kinds.includes(edge.kind) && !edge.external) pending.push(edge.path);
  }
  return new Set([...reached].map((input) => path.join(repoRoot, input)));
}

/** Whether `file` is code of an installed package (bundled, since only bundled packages' code is read). */
function isInPackage(file) {
  return file.split(path.sep).includes('node_modules');
}

/** An esbuild plugin: what stays an import (with a path relative to dist/src/plugin/) and what is bundled. */
function importsToKeep(keptFiles) {
  const isBundledPackage = (specifier) => BUNDLED_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  return {
    name: 'imports-to-keep',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (args.path === 'unplugin' && ENTRIES_IMPORTING_UNPLUGIN.includes(path.relative(pluginDir, args.importer)))
          return { path: args.path, external: true };
        if (!/^\.\.?\//.test(args.path)) {
          const bundled = isBundledPackage(args.path) || (isInPackage(args.importer) && !args.path.startsWith('node:'));
          return bundled ? undefined : { path: args.path, external: true };
        }
        const target = path.resolve(args.resolveDir, args.path);
        if (!keptFiles.has(target)) return undefined;
        const specifier = path.relative(pluginDir, target).split(path.sep).join('/');
        return { path: specifier.startsWith('.') ? specifier : `./${specifier}`, external: true };
      });
    },
  };
}

/**
 * A bundle's header: what made it, and the packages whose code it carries with their licenses and
 * copyright lines (their license files stay in node_modules, installed with them).
 */
function bannerFor(outputInputs) {
  const packages = new Map();
  // Only inputs with code left in the output: TypeBox, say, is parsed for openapi-asset.js but shaken out.
  for (const [input, { bytesInOutput }] of Object.entries(outputInputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (bytesInOutput > 0 && match && !packages.has(match[1]))
      packages.set(match[1], packageNotice(path.join(repoRoot, input.slice(0, match.index + match[0].length))));
  }
  const lines = [
    "// Bundled by unplugin-idl-rpc's build (src/build/bundle-plugin.mjs) from the modules of src/plugin/ and what they import.",
  ];
  for (const [name, notice] of [...packages].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`// Includes ${name}: ${notice.replace(/\.$/, '')}.`);
  return lines;
}

/** "<license>, <copyright line>" of the package installed in `folder`. */
function packageNotice(folder) {
  const { license } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(folder).find((name) => /^licen[cs]e/i.test(name));
  const copyright = licenseFile && /^.*Copyright.*$/m.exec(readFileSync(path.join(folder, licenseFile), 'utf8'))?.[0].trim();
  return copyright ? `${license}, ${copyright}` : license;
}

/** Bundles the plugin over dist/src/plugin/ and removes the emitted files now inside the bundles. */
async function bundlePlugin() {
  const shell = shellEntries();
  const inputs = await moduleGraph(shell);
  const staticallyReached = reachable(inputs, shell, ['import-statement']);
  const lazy = [...reachable(inputs, shell, ['import-statement', 'dynamic-import'])].filter(
    (file) => path.dirname(file) === pluginDir && !staticallyReached.has(file),
  );
  const keptFiles = new Set([...staticallyReached].filter((file) => file.startsWith(`${runtimeDir}${path.sep}`)));
  const result = await build({
    entryPoints: [...shell, ...lazy],
    outdir: pluginDir,
    outbase: pluginDir,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    write: false,
    allowOverwrite: true,
    plugins: [importsToKeep(keptFiles)],
    logLevel: 'warning',
  });
  const written = new Set();
  for (const output of result.outputFiles) {
    const isMap = output.path.endsWith('.map');
    const code = output.path.replace(/\.map$/, '');
    const banner = bannerFor(result.metafile.outputs[path.relative(repoRoot, code)].inputs);
    // The header's lines shift the code down: the map gets as many empty lines first.
    const text = isMap
      ? output.text.replace('"mappings": "', `"mappings": "${';'.repeat(banner.length)}`)
      : `${banner.join('\n')}\n${output.text}`;
    writeFileSync(output.path, text);
    written.add(output.path);
  }
  for (const name of readdirSync(pluginDir)) {
    const file = path.join(pluginDir, name);
    if (/\.js(\.map)?$/.test(name) && !written.has(file)) rmSync(file);
  }
}

await bundlePlugin();
