/**
 * Builds one entry with each of the six bundlers through their JS APIs, the way a user's config
 * would, with this package's plugin. Every build writes into its own output folder and reports
 * where the bundle and the openapi.json ended up.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { IdlRpcPluginOptions } from '../../../src/plugin/options.js';
import idlRpcEsbuild from '../../../src/plugin/esbuild.js';
import idlRpcRolldown from '../../../src/plugin/rolldown.js';
import idlRpcRollup from '../../../src/plugin/rollup.js';
import idlRpcRspack from '../../../src/plugin/rspack.js';
import idlRpcVite from '../../../src/plugin/vite.js';
import idlRpcWebpack from '../../../src/plugin/webpack.js';

export const BUNDLERS = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack'] as const;
export type Bundler = (typeof BUNDLERS)[number];

export interface BuildRequest {
  /** The app folder (Vite builds its index.html; the others start at `entry`). */
  root: string;
  /** The entry module, relative to `root`. */
  entry: string;
  outDir: string;
  plugin?: IdlRpcPluginOptions;
}

export interface BuildResult {
  /** The JavaScript file holding the app. */
  bundleFile: string;
  /** `esm`: load with `import()`; `script`: run as a classic script. */
  format: 'esm' | 'script';
}

/** Builds with one bundler; rejects with the bundler's own error (message text included) on failure. */
export async function buildWith(bundler: Bundler, request: BuildRequest): Promise<BuildResult> {
  const entry = path.join(request.root, request.entry);
  const { outDir } = request;
  switch (bundler) {
    case 'vite': {
      const { build } = await import('vite');
      await build({
        configFile: false,
        root: request.root,
        logLevel: 'silent',
        plugins: [idlRpcVite(request.plugin)],
        // The preload polyfill touches `document`; the test runs the bundle in Node.
        build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false } },
      });
      const assets = await readdir(path.join(outDir, 'assets'));
      const script = assets.find((f) => f.endsWith('.js'));
      if (!script) throw new Error(`vite wrote no script into ${outDir}/assets`);
      return { bundleFile: path.join(outDir, 'assets', script), format: 'esm' };
    }
    case 'rollup': {
      const { rollup } = await import('rollup');
      const { nodeResolve } = await import('@rollup/plugin-node-resolve');
      const bundle = await rollup({
        input: entry,
        plugins: [idlRpcRollup(request.plugin), nodeResolve({ browser: true })],
        onwarn: () => {},
      });
      try {
        await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'app.js' });
      } finally {
        await bundle.close();
      }
      return { bundleFile: path.join(outDir, 'app.js'), format: 'esm' };
    }
    case 'rolldown': {
      const { rolldown } = await import('rolldown');
      const bundle = await rolldown({ input: entry, platform: 'browser', plugins: [idlRpcRolldown(request.plugin)], logLevel: 'silent' });
      try {
        await bundle.write({ dir: outDir, format: 'esm', entryFileNames: 'app.js', minify: true });
      } finally {
        await bundle.close();
      }
      return { bundleFile: path.join(outDir, 'app.js'), format: 'esm' };
    }
    case 'esbuild': {
      const esbuild = await import('esbuild');
      // `outfile`, not `outdir`: the case where esbuild itself drops emitted assets.
      const outfile = path.join(outDir, 'app.js');
      await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        minify: true,
        outfile,
        logLevel: 'silent',
        plugins: [idlRpcEsbuild(request.plugin)],
      });
      return { bundleFile: outfile, format: 'esm' };
    }
    case 'webpack': {
      const { default: webpack } = await import('webpack');
      await runCompiler(
        webpack({
          mode: 'production',
          context: request.root,
          entry,
          target: 'web',
          devtool: false,
          output: { path: outDir, filename: 'app.js', clean: true },
          plugins: [idlRpcWebpack(request.plugin)],
        }),
      );
      return { bundleFile: path.join(outDir, 'app.js'), format: 'script' };
    }
    case 'rspack': {
      const { rspack } = await import('@rspack/core');
      await runCompiler(
        rspack({
          mode: 'production',
          context: request.root,
          entry,
          target: 'web',
          devtool: false,
          output: { path: outDir, filename: 'app.js', clean: true },
          plugins: [idlRpcRspack(request.plugin)],
        }),
      );
      return { bundleFile: path.join(outDir, 'app.js'), format: 'script' };
    }
  }
}

interface CompilerLike {
  run(callback: (error: Error | null, stats?: StatsLike) => void): void;
  close(callback: (error?: Error | null) => void): void;
}
interface StatsLike {
  hasErrors(): boolean;
  toString(options: unknown): string;
}

/** Runs a webpack or Rspack compiler; rejects with every error message when the build failed. */
function runCompiler(compiler: CompilerLike | null): Promise<void> {
  if (!compiler) return Promise.reject(new Error('no compiler'));
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
