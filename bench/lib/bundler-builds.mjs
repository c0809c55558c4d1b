/**
 * One production build of a bench app (bench/lib/build-apps.mjs) with each of the six bundlers,
 * through their JS APIs as a user's config would drive them (the settings of
 * test/plugin/harness/bundlers.ts): with our plugin for the `plugin` variant, and with the bundler's
 * own TypeScript support for the `pregenerated` one (Rollup and webpack have none: they build the
 * esbuild-transpiled copy, made before any timing). The `noop` variant builds the pregenerated app
 * with a plugin that does nothing, made with unplugin: what any unplugin plugin costs a build (its
 * start-up and the bundler's plugin machinery), the floor under the `plugin` variant.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// Not ours.mjs: it loads esbuild, which every timed build process would then pay for.
import { repoRoot } from './checkout.mjs';

export const BUNDLERS = ['vite', 'esbuild', 'webpack', 'rspack', 'rollup', 'rolldown', 'rsbuild', 'farm', 'bun'];

/** Hosts whose builds run in their own runtime rather than Node: the binary that runs them. */
export const HOST_BINARIES = { bun: path.join(repoRoot, 'node_modules', '.bin', 'bun') };

/** What each bundler builds for the pregenerated variant, for the row labels. */
export const PREGENERATED_SOURCE = {
  vite: 'gen/*.ts, Vite TypeScript',
  esbuild: 'gen/*.ts, esbuild TypeScript',
  webpack: 'gen/*.ts transpiled to .js by esbuild before timing',
  rspack: 'gen/*.ts, builtin:swc-loader',
  rollup: 'gen/*.ts transpiled to .js by esbuild before timing',
  rolldown: 'gen/*.ts, Rolldown TypeScript',
  rsbuild: 'gen/*.ts, Rsbuild TypeScript',
  farm: 'gen/*.ts, Farm TypeScript',
  bun: 'gen/*.ts, Bun.build TypeScript',
};

/** Bundlers that read the transpiled `gen-js/` copy (entry `main-js.js`). */
const NEEDS_TRANSPILED = new Set(['webpack', 'rollup']);

/** The plugin of `bundler`, with default options (so it also writes `.idl.d.ts` and openapi.json). */
async function ourPlugin(bundler) {
  const file = path.join(repoRoot, 'dist', 'src', 'plugin', `${bundler}.js`);
  if (!existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first`);
  const { default: create } = await import(pathToFileURL(file).href);
  return create();
}

/**
 * A plugin with one load hook that declines every `.idl` (esbuild asks it for those alone, as it
 * asks ours), made by unplugin for `bundler`.
 */
async function noopPlugin(bundler) {
  const { createUnplugin } = await import('unplugin');
  const idl = /\.idl$/;
  const noop = createUnplugin(() => ({ name: 'noop', load: { filter: { id: idl }, handler: () => null }, esbuild: { onLoadFilter: idl } }));
  return noop[bundler]();
}

/** The plugins of a build of `variant`. */
async function pluginsOf(bundler, variant) {
  if (variant === 'plugin') return [await ourPlugin(bundler)];
  return variant === 'noop' ? [await noopPlugin(bundler)] : [];
}

/**
 * Builds `appDir` into `appDir/dist` with `bundler`; `variant` is `plugin`, `pregenerated` or `noop`.
 * Resolves with the bytes of JavaScript written (to show both variants built the same app).
 */
export async function buildApp(bundler, variant, appDir) {
  // The app whose entry imports the `.idl` (the others import the pre-generated TypeScript).
  const idlApp = variant === 'plugin';
  const entry = path.join(appDir, !idlApp && NEEDS_TRANSPILED.has(bundler) ? 'main-js.js' : 'main.js');
  const outDir = path.join(appDir, 'dist');
  const plugins = await pluginsOf(bundler, variant);
  // This package says "type": "module", so webpack and Rspack want `.js`-suffixed imports in its
  // files; the esm-bundler style writes `./types`, as a bundler project would, so relax that.
  const extensionlessImports = { test: /\.[jt]s$/, resolve: { fullySpecified: false } };
  switch (bundler) {
    case 'vite': {
      const { build } = await import('vite');
      await build({
        configFile: false,
        root: appDir,
        cacheDir: path.join(appDir, 'node_modules', '.vite'),
        logLevel: 'silent',
        plugins,
        build: { outDir, emptyOutDir: true, rollupOptions: { input: entry } },
      });
      break;
    }
    case 'esbuild': {
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        minify: true,
        outfile: path.join(outDir, 'app.js'),
        logLevel: 'silent',
        plugins,
      });
      break;
    }
    case 'rollup': {
      const { rollup } = await import('rollup');
      const { nodeResolve } = await import('@rollup/plugin-node-resolve');
      const bundle = await rollup({ input: entry, plugins: [...plugins, nodeResolve({ browser: true })], onwarn: () => {} });
      try {
        await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'app.js' });
      } finally {
        await bundle.close();
      }
      break;
    }
    case 'rolldown': {
      const { rolldown } = await import('rolldown');
      const bundle = await rolldown({ input: entry, platform: 'browser', plugins, logLevel: 'silent' });
      try {
        await bundle.write({ dir: outDir, format: 'esm', entryFileNames: 'app.js', minify: true });
      } finally {
        await bundle.close();
      }
      break;
    }
    case 'webpack': {
      const { default: webpack } = await import('webpack');
      await runCompiler(
        webpack({
          mode: 'production',
          context: appDir,
          entry,
          target: 'web',
          devtool: false,
          output: { path: outDir, filename: 'app.js', clean: true },
          module: idlApp ? {} : { rules: [extensionlessImports] },
          plugins,
        }),
      );
      break;
    }
    case 'rspack': {
      const { rspack } = await import('@rspack/core');
      const typescript = {
        test: /\.ts$/,
        loader: 'builtin:swc-loader',
        // ES2022 like the other bundlers' output (SWC's default target is ES5).
        options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
        type: 'javascript/auto',
      };
      await runCompiler(
        rspack({
          mode: 'production',
          context: appDir,
          entry,
          target: 'web',
          devtool: false,
          output: { path: outDir, filename: 'app.js', clean: true },
          resolve: idlApp ? {} : { extensions: ['.ts', '...'] },
          module: idlApp ? {} : { rules: [extensionlessImports, typescript] },
          plugins,
        }),
      );
      break;
    }
    case 'rsbuild': {
      const { createRsbuild } = await import('@rsbuild/core');
      const rsbuild = await createRsbuild({
        cwd: appDir,
        rsbuildConfig: {
          plugins,
          logLevel: 'silent',
          source: { entry: { app: entry } },
          output: { distPath: { root: outDir }, filenameHash: false, cleanDistPath: true },
          tools: { htmlPlugin: false, rspack: idlApp ? {} : { module: { rules: [extensionlessImports] } } },
        },
      });
      const result = await rsbuild.build();
      await result.close?.();
      break;
    }
    case 'farm': {
      const { build } = await import('@farmfe/core');
      await build({
        root: appDir,
        configPath: false,
        clearScreen: false,
        // Farm's own logger writes to stdout, where this process reports its figures.
        customLogger: silentLogger(),
        compilation: { input: { app: entry }, output: { path: outDir, targetEnv: 'browser' } },
        plugins,
      });
      break;
    }
    case 'bun': {
      const result = await Bun.build({ entrypoints: [entry], outdir: outDir, target: 'browser', minify: true, plugins, throw: false });
      if (!result.success) throw new Error(result.logs.map(String).join('\n'));
      break;
    }
    default:
      throw new Error(`unknown bundler ${bundler} (expected one of ${BUNDLERS.join(', ')})`);
  }
  return javaScriptBytes(outDir);
}

/** A Farm logger that prints nothing but errors (to stderr). */
function silentLogger() {
  const quiet = () => {};
  return {
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: quiet,
    warnOnce: quiet,
    errorOnce: quiet,
    hasErrorLogged: () => false,
    hasWarnLogged: () => false,
    error: (message) => console.error(message),
  };
}

/** Bytes of every `.js` file under `dir`; throws when there is none (the build wrote nothing). */
function javaScriptBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.js')) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  if (bytes === 0) throw new Error(`the build wrote no JavaScript into ${dir}`);
  return bytes;
}

/** Runs a webpack or Rspack compiler; rejects with every error message when the build failed. */
function runCompiler(compiler) {
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error) return reject(error);
        if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
        resolve();
      });
    });
  });
}
