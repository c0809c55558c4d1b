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
 *   all of unplugin was some 20 ms of every bundler process's start). The entries whose shell is a
 *   script (below) are not bundled here: the build writes them as a few lines that run it;
 * - the plugin's other emitted `.js` files, now inside the bundles, are removed (their `.d.ts` stay:
 *   the entries' types refer to them).
 *
 * Then the compiler part (src/plugin/compiler-part.ts: the compiler, the generators, the converters,
 * the breaking-change check) as one CommonJS script, compiler-part.cjs, which the shell runs with
 * V8's code cache (src/plugin/compiler-part-loader.ts, code-cache.ts): Node 20 keeps no compiled code
 * of ES modules between processes, and parsing and compiling the compiler's functions was half of
 * what a cold build spent in it. The modules the shell loads too are not in the script: it takes the
 * shell's (`require('shell:<path>')`, src/plugin/shell-modules.ts, whose list is checked here).
 *
 * And the shell of the Vite, Rollup, Rolldown, esbuild and Farm entries as one CommonJS script,
 * shell.cjs, and that of the webpack, Rspack and Rsbuild entries as another, webpack-shell.cjs, each
 * with what its entries load with `import()` and its hosts' part of unplugin; the entries themselves
 * are then written as a few lines that run their script (src/plugin/shell-script-runner.ts): Node's
 * ES module loader costs per file, and making a plugin from one script takes a third to a half of
 * the time. The runner lends the scripts the runtime's files and src/plugin/import-module.ts (list
 * checked here). unplugin's webpack and Rspack parts hand the bundler loader files by their path in
 * unplugin's package: in webpack-shell.cjs, unplugin's modules see where unplugin is installed as
 * their `import.meta` (unplugin-url.mjs), and the loaders load from there.
 *
 *   node src/build/bundle-plugin.mjs      (run by `npm run build`)
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = path.join(repoRoot, 'dist');
const pluginDir = path.join(distDir, 'src', 'plugin');
const runtimeDir = path.join(distDir, 'runtime');
/** The compiler part's module as `tsc` emitted it, and its script. */
const COMPILER_PART = path.join(pluginDir, 'compiler-part.js');
const COMPILER_PART_SCRIPT = path.join(pluginDir, 'compiler-part.cjs');
/** The shell's list of the modules it lends the compiler part. */
const SHELL_MODULES = path.join(pluginDir, 'shell-modules.js');
/** The module that runs the shell script (and lists what it lends it), and the script. */
const SHELL_SCRIPT_RUNNER = path.join(pluginDir, 'shell-script-runner.js');
/**
 * The shell scripts, each with the entries it holds, by host: the others run under Bun (no code
 * cache), or are Next.js's. Two scripts, so that each holds only its hosts' part of unplugin: the
 * webpack family's finds its loader files where unplugin is installed, and that lookup (about 2 ms)
 * would otherwise be part of every Vite or esbuild build's start.
 */
const SHELL_SCRIPTS = {
  'shell.cjs': { vite: 'vite.js', rollup: 'rollup.js', rolldown: 'rolldown.js', esbuild: 'esbuild.js', farm: 'farm.js' },
  'webpack-shell.cjs': { webpack: 'webpack.js', rspack: 'rspack.js', rsbuild: 'rsbuild.js' },
};
/**
 * The shell script whose unplugin part must see where unplugin is installed (its loader files). In the
 * other, the loader paths unplugin's module computes as it loads are never used.
 */
const SCRIPT_OF_UNPLUGIN_LOADERS = 'webpack-shell.cjs';
/** The module through which the shell script imports ES modules. */
const IMPORT_MODULE = path.join(pluginDir, 'import-module.js');

/** Loaded by file path rather than imported: Next.js runs its loaders by path. */
const LOADED_BY_PATH = ['next-idl-loader.js'];
/**
 * Packages whose code goes into the bundles: the compiler's, loaded only with it, and unplugin. What
 * a bundled package imports is bundled too (unplugin's own dependencies): as imports they would have
 * to resolve from this package, which pnpm does not allow for a dependency of a dependency.
 */
const BUNDLED_PACKAGES = ['@sinclair/typebox', 'parsimmon', '@jridgewell/sourcemap-codec', 'yaml', 'unplugin'];
/** unplugin's modules, bundled into webpack-shell.cjs: their `import.meta` is unplugin's (see unplugin-url.mjs). */
const UNPLUGIN_MODULE = /[\\/]node_modules[\\/]unplugin[\\/]dist[\\/][^\\/]+\.mjs$/;

/** The plugin files of the package's `exports`, and the files loaded by path. */
function shellEntries() {
  const { exports } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const targets = Object.values(exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target) => target.startsWith('./dist/src/plugin/'))
    .map((target) => path.join(repoRoot, target));
  return [...targets, ...LOADED_BY_PATH.map((name) => path.join(pluginDir, name)), SHELL_SCRIPT_RUNNER];
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

/** The modules reached from `entries` through the edges of `kinds` (none out of `dead` files), as absolute paths. */
function reachable(inputs, entries, kinds, dead = []) {
  const reached = new Set();
  const pending = entries.map((file) => path.relative(repoRoot, file));
  const deadInputs = new Set(dead.map((file) => path.relative(repoRoot, file)));
  while (pending.length > 0) {
    const input = pending.pop();
    if (reached.has(input)) continue;
    reached.add(input);
    if (deadInputs.has(input)) continue;
    for (const edge of inputs[input]?.imports ?? []) if (kinds.includes(edge.kind) && !edge.external) pending.push(edge.path);
  }
  return new Set([...reached].map((input) => path.join(repoRoot, input)));
}

/** Whether `file` is code of an installed package (bundled, since only bundled packages' code is read). */
function isInPackage(file) {
  return file.split(path.sep).includes('node_modules');
}

/**
 * An esbuild plugin: what stays an import and what is bundled. `keptSpecifier(file)` is the specifier
 * a module of ours that stays an import is imported by (undefined: bundle it).
 */
function importsToKeep(keptSpecifier) {
  const isBundledPackage = (specifier) => BUNDLED_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  return {
    name: 'imports-to-keep',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!/^\.\.?\//.test(args.path)) {
          const bundled = isBundledPackage(args.path) || (isInPackage(args.importer) && !args.path.startsWith('node:'));
          return bundled ? undefined : { path: args.path, external: true };
        }
        const specifier = keptSpecifier(path.resolve(args.resolveDir, args.path));
        return specifier === undefined ? undefined : { path: specifier, external: true };
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

/** The specifier dist/src/plugin/ imports `file` by. */
function relativeSpecifier(file) {
  const specifier = path.relative(pluginDir, file).split(path.sep).join('/');
  return specifier.startsWith('.') ? specifier : `./${specifier}`;
}

/** Writes a build's outputs, each code file under its banner. */
function writeOutputs(result) {
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
  return written;
}

/** What the esbuild builds below share. */
const COMMON_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  write: false,
  logLevel: 'warning',
};

/**
 * The shell: the entries that are not scripts and the modules loaded with `import()` (the scripts'
 * too) as ES modules over dist/src/plugin/, the compiler part left out (an import of it stays, which
 * only a run from the sources takes). Returns the files written.
 */
async function bundleShell(shell, inputs, staticallyReached) {
  const lazy = [...reachable(inputs, shell, ['import-statement', 'dynamic-import'], [COMPILER_PART])].filter(
    (file) => path.dirname(file) === pluginDir && !staticallyReached.has(file) && file !== COMPILER_PART,
  );
  const scripted = new Set(
    Object.values(SHELL_SCRIPTS).flatMap((entries) => Object.values(entries).map((entry) => path.join(pluginDir, entry))),
  );
  const runtimeFiles = new Set([...staticallyReached].filter((file) => file.startsWith(`${runtimeDir}${path.sep}`)));
  const keptSpecifier = (file) => (runtimeFiles.has(file) || file === COMPILER_PART ? relativeSpecifier(file) : undefined);
  const result = await build({
    ...COMMON_OPTIONS,
    entryPoints: [...shell.filter((file) => !scripted.has(file)), ...lazy],
    outdir: pluginDir,
    outbase: pluginDir,
    chunkNames: 'chunk-[hash]',
    splitting: true,
    format: 'esm',
    allowOverwrite: true,
    plugins: [importsToKeep(keptSpecifier)],
  });
  return writeOutputs(result);
}

/**
 * An esbuild plugin: in unplugin's modules, `import.meta.url` and `import.meta.dirname` are where
 * unplugin is installed (unplugin-url.mjs), not the script's place: its webpack and Rspack parts hand
 * the bundler loader files by their path in unplugin's package, and require packages from there.
 */
const unpluginOwnLocation = {
  name: 'unplugin-own-location',
  setup(builder) {
    builder.onLoad({ filter: UNPLUGIN_MODULE }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', 'unpluginUrl')
        .replaceAll('import.meta.dirname', 'unpluginDirname'),
      loader: 'js',
    }));
  },
};

/** A module's path in the package's dist/, as the scripts name the modules lent them. */
function distPath(file) {
  return path.relative(distDir, file).split(path.sep).join('/');
}

/**
 * A CommonJS script of `entry` (options for esbuild: `entryPoints` or `stdin`) at `outfile`. The
 * modules of `lent` it asks of the ES module that runs it (`require('shell:<path>')`, code-cache.ts);
 * the build fails unless the list `listName` exported by `lister` names exactly those the script
 * still asks for once bundled (an import of types or of nothing used leaves none). With `unpluginInstalled`,
 * unplugin's modules in it see where unplugin is installed as their `import.meta` (unplugin-url.mjs).
 */
async function bundleScript(entry, outfile, lent, lister, listName, { unpluginInstalled = false } = {}) {
  const module = await import(pathToFileURL(path.join(pluginDir, path.basename(lister).replace(/\.ts$/, '.js'))).href);
  const { LENT_MODULE_PREFIX } = await import(pathToFileURL(path.join(pluginDir, 'code-cache.js')).href);
  const result = await build({
    ...COMMON_OPTIONS,
    ...entry,
    outfile,
    format: 'cjs',
    // The script's own URL, file and folder, for the modules that find files from theirs.
    define: { 'import.meta.url': 'scriptUrl', 'import.meta.filename': '__filename', 'import.meta.dirname': '__dirname' },
    inject: [
      fileURLToPath(new URL('./script-url.mjs', import.meta.url)),
      ...(unpluginInstalled ? [fileURLToPath(new URL('./unplugin-url.mjs', import.meta.url))] : []),
    ],
    plugins: [
      ...(unpluginInstalled ? [unpluginOwnLocation] : []),
      importsToKeep((file) => {
        if (lent.has(file)) return `${LENT_MODULE_PREFIX}${distPath(file)}`;
        // Only a run from the sources takes the compiler part's modules (compiler-part-loader.ts).
        return file === COMPILER_PART ? relativeSpecifier(file) : undefined;
      }),
    ],
  });
  const { imports } = result.metafile.outputs[path.relative(repoRoot, outfile)];
  const needed = imports
    .filter((i) => i.external && i.path.startsWith(LENT_MODULE_PREFIX))
    .map((i) => i.path.slice(LENT_MODULE_PREFIX.length));
  const listed = Object.keys(module[listName]);
  const missing = needed.filter((name) => !listed.includes(name));
  const extra = listed.filter((name) => !needed.includes(name));
  if (missing.length > 0 || extra.length > 0)
    throw new Error(
      `${lister} must list exactly the modules its script takes from it: add ${missing.join(', ') || 'none'}; remove ${extra.join(', ') || 'none'}`,
    );
  return writeOutputs(result);
}

/** The compiler part as one CommonJS script; `shared`: the modules the shell loads too, lent by shell-modules.ts. */
function bundleCompilerPart(shared) {
  return bundleScript({ entryPoints: [COMPILER_PART] }, COMPILER_PART_SCRIPT, shared, 'src/plugin/shell-modules.ts', 'SHELL_MODULES');
}

/**
 * A shell script, `name`: its entries' default exports under their hosts' names, with the modules
 * they load with `import()` (as the shell's lazy chunks have them), as one CommonJS script. Lent by
 * shell-script-runner.ts: the runtime's files the entries import (the shell's bundles import them
 * too, rather than carry copies) and import-module.js.
 */
function bundleShellScript(inputs, name) {
  const scripted = SHELL_SCRIPTS[name];
  const entries = Object.values(scripted).map((entry) => path.join(pluginDir, entry));
  const imported = reachable(inputs, entries, ['import-statement']);
  const reached = reachable(inputs, entries, ['import-statement', 'dynamic-import'], [COMPILER_PART]);
  const isRuntime = (file) => file.startsWith(`${runtimeDir}${path.sep}`);
  const lent = new Set([...imported].filter(isRuntime));
  if (reached.has(IMPORT_MODULE)) lent.add(IMPORT_MODULE);
  const contents = Object.entries(scripted)
    .map(([host, entry]) => `export { default as ${host} } from './${entry}';`)
    .join('\n');
  const stdin = { contents, resolveDir: pluginDir, sourcefile: `${name}-entry.js`, loader: 'js' };
  return bundleScript({ stdin }, path.join(pluginDir, name), lent, 'src/plugin/shell-script-runner.ts', 'SCRIPT_MODULES', {
    unpluginInstalled: name === SCRIPT_OF_UNPLUGIN_LOADERS,
  });
}

/** Writes the scripted entries (over `tsc`'s output of them): each runs its shell script. */
function writeScriptedEntries(written) {
  for (const [name, scripted] of Object.entries(SHELL_SCRIPTS)) {
    for (const [host, entry] of Object.entries(scripted)) {
      const file = path.join(pluginDir, entry);
      writeFileSync(
        file,
        `// Written by unplugin-idl-rpc's build (src/build/bundle-plugin.mjs): the ${host} plugin, from the shell script.\n` +
          `import { shellScript } from './shell-script-runner.js';\n\nexport default shellScript('${name}').${host};\n`,
      );
      written.add(file);
    }
  }
}

/** Bundles the plugin over dist/src/plugin/ and removes the emitted files now inside the bundles. */
async function bundlePlugin() {
  const shell = shellEntries();
  const inputs = await moduleGraph(shell);
  const staticallyReached = reachable(inputs, shell, ['import-statement']);
  // What the shell loads of its own: the modules it lends the compiler part do not count.
  const shellOwn = reachable(inputs, shell, ['import-statement'], [SHELL_MODULES]);
  const compilerPart = reachable(inputs, [COMPILER_PART], ['import-statement']);
  const shared = new Set([...compilerPart].filter((file) => shellOwn.has(file)));
  // The scripts first: the shell's bundles are written over some of the modules they read.
  const written = new Set([
    ...(await bundleCompilerPart(shared)),
    ...(await bundleShellScript(inputs, 'shell.cjs')),
    ...(await bundleShellScript(inputs, 'webpack-shell.cjs')),
    ...(await bundleShell(shell, inputs, staticallyReached)),
  ]);
  writeScriptedEntries(written);
  for (const name of readdirSync(pluginDir)) {
    const file = path.join(pluginDir, name);
    if (/\.js(\.map)?$/.test(name) && !written.has(file)) rmSync(file);
  }
}

await bundlePlugin();
