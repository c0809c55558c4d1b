/**
 * After `tsc`: the plugin's lazily loaded parts become one file each.
 *
 * The plugin loads the compiler with `import()` on its first compile (src/plugin/compiler.ts). As
 * `tsc` emits it, that import pulls in about 300 modules (our parser, checker and generators, and
 * TypeBox's 218 files), which Node reads and compiles one by one: about 120 ms of a cold build's
 * 35 ms compile of checkout.idl. Bundled, the same code loads in under 20 ms. Each lazy entry
 * below is rewritten in place (dist/src/plugin/<entry>.js) as a bundle of everything it imports,
 * except the modules the plugin's shell imports itself: those stay imports of their own files, so
 * the shell and the bundle share one copy of them (one `IdlModuleError` class, one runtime).
 *
 *   node src/build/bundle-lazy-parts.mjs      (run by `npm run build`)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pluginDir = path.join(repoRoot, 'dist', 'src', 'plugin');

/** Modules the plugin loads only with `import()`; nothing imports them statically (checked below). */
const LAZY_ENTRIES = ['compile-idl-file.js', 'compile-idl-model.js', 'openapi-asset.js', 'openrpc-asset.js'];

/**
 * The bundle's header: what made it, and the packages whose code it carries with their licenses and
 * copyright lines (their own license files stay in node_modules, installed with them).
 */
function bannerFor(metafile) {
  const packages = new Map();
  const [output] = Object.values(metafile.outputs).filter((out) => out.entryPoint);
  // Only inputs with code left in the output: TypeBox, say, is parsed for openapi-asset.js but shaken out.
  const kept = Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0);
  for (const [input] of kept) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match && !packages.has(match[1]))
      packages.set(match[1], packageNotice(path.join(repoRoot, input.slice(0, match.index + match[0].length))));
  }
  const lines = ["// Bundled by unplugin-idl-rpc's build (src/build/bundle-lazy-parts.mjs) from the modules this file imports."];
  for (const [name, notice] of [...packages].sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`// Includes ${name}: ${notice.replace(/\.$/, '')}.`);
  return lines.join('\n');
}

/** "<license>, <copyright line>" of the package installed in `folder`. */
function packageNotice(folder) {
  const { license } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(folder).find((name) => /^licen[cs]e/i.test(name));
  const copyright = licenseFile && /^.*Copyright.*$/m.exec(readFileSync(path.join(folder, licenseFile), 'utf8'))?.[0].trim();
  return copyright ? `${license}, ${copyright}` : license;
}

/** Every module the shell (the plugin's other files) reaches through static imports, as absolute paths. */
async function shellModules() {
  const roots = readdirSync(pluginDir)
    .filter((name) => name.endsWith('.js') && !LAZY_ENTRIES.includes(name))
    .map((name) => path.join(pluginDir, name));
  const { metafile } = await build({
    entryPoints: roots,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: path.join(repoRoot, 'dist', '.shell-graph'),
    logLevel: 'silent',
  });
  const reached = new Set();
  const pending = roots.map((file) => path.relative(repoRoot, file));
  while (pending.length > 0) {
    const input = pending.pop();
    if (reached.has(input)) continue;
    reached.add(input);
    for (const edge of metafile.inputs[input]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external) pending.push(edge.path);
    }
  }
  return new Set([...reached].map((input) => path.join(repoRoot, input)));
}

/** An esbuild plugin: imports of shell modules stay imports, relative to the bundle's own folder. */
function keepShellModules(shell, bundleDir) {
  return {
    name: 'keep-shell-modules',
    setup(builder) {
      builder.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        if (!shell.has(target)) return undefined;
        const specifier = path.relative(bundleDir, target).split(path.sep).join('/');
        return { path: specifier.startsWith('.') ? specifier : `./${specifier}`, external: true };
      });
    },
  };
}

/** Bundles each lazy entry (all read before any is written) and writes them over the originals. */
async function bundleLazyEntries() {
  const shell = await shellModules();
  for (const entry of LAZY_ENTRIES) {
    const file = path.join(pluginDir, entry);
    if (shell.has(file)) throw new Error(`${entry} is imported statically by the plugin's shell; it cannot be bundled apart`);
  }
  const outputs = [];
  for (const entry of LAZY_ENTRIES) {
    const file = path.join(pluginDir, entry);
    const options = {
      entryPoints: [file],
      outfile: file,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      plugins: [keepShellModules(shell, pluginDir)],
      write: false,
      allowOverwrite: true,
      logLevel: 'warning',
    };
    // Twice: the first build finds the packages the header names.
    const { metafile } = await build({ ...options, metafile: true });
    const result = await build({ ...options, sourcemap: 'linked', sourcesContent: false, banner: { js: bannerFor(metafile) } });
    outputs.push(...result.outputFiles);
  }
  for (const output of outputs) writeFileSync(output.path, output.contents);
}

await bundleLazyEntries();
