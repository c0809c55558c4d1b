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
  /** The app folder (Vite builds an HTML page of it; the others start at `entry`). */
  root: string;
  /** The entry module, relative to `root`. */
  entry: string;
  /** The page Vite builds, relative to `root` (its script is `entry`); index.html by default. */
  page?: string;
  outDir: string;
  plugin?: IdlRpcPluginOptions;
}

export interface BuildResult {
  /** The JavaScript file holding the app. */
  bundleFile: string;
  /** `esm`: load with `import()`; `script`: run as a classic script. */
  format: 'esm' | 'script';
}

/**
 * The configuration of each bundler, as a user's config would hold it; shared by one-shot builds
 * and watch sessions (harness/watch.ts).
 */
export const configs = {
  vite: (request: BuildRequest) => ({
    configFile: false as const,
    root: request.root,
    logLevel: 'silent' as const,
    plugins: [idlRpcVite(request.plugin)],
    // The preload polyfill touches `document`; the test runs the bundle in Node.
    build: {
      outDir: request.outDir,
      emptyOutDir: true,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: path.join(request.root, request.page ?? 'index.html') } as { input: string },
    },
  }),
  rollup: async (request: BuildRequest) => {
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    return {
      input: path.join(request.root, request.entry),
      plugins: [idlRpcRollup(request.plugin), nodeResolve({ browser: true })],
      onwarn: () => {},
    };
  },
  rollupOutput: (request: BuildRequest) => ({ dir: request.outDir, format: 'es' as const, entryFileNames: 'app.js' }),
  rolldown: (request: BuildRequest) => ({
    input: path.join(request.root, request.entry),
    platform: 'browser' as const,
    plugins: [idlRpcRolldown(request.plugin)],
    logLevel: 'silent' as const,
  }),
  rolldownOutput: (request: BuildRequest) => ({ dir: request.outDir, format: 'esm' as const, entryFileNames: 'app.js', minify: true }),
  esbuild: (request: BuildRequest) => ({
    entryPoints: [path.join(request.root, request.entry)],
    bundle: true,
    format: 'esm' as const,
    platform: 'browser' as const,
    minify: true,
    // `outfile`, not `outdir`: the case where esbuild itself drops emitted assets.
    outfile: path.join(request.outDir, 'app.js'),
    logLevel: 'silent' as const,
    plugins: [idlRpcEsbuild(request.plugin)],
  }),
  webpack: (request: BuildRequest) => ({
    ...webpackLikeConfig(request),
    plugins: [idlRpcWebpack(request.plugin)],
  }),
  rspack: (request: BuildRequest) => ({
    ...webpackLikeConfig(request),
    plugins: [idlRpcRspack(request.plugin)],
  }),
};

function webpackLikeConfig(request: BuildRequest) {
  return {
    mode: 'production' as const,
    context: request.root,
    entry: path.join(request.root, request.entry),
    target: 'web' as const,
    devtool: false as const,
    output: { path: request.outDir, filename: 'app.js', clean: true },
  };
}

/** Where each bundler puts the app's JavaScript (Vite names it by content, so it is looked up). */
export async function bundleOf(bundler: Bundler, outDir: string): Promise<BuildResult> {
  switch (bundler) {
    case 'vite': {
      const assets = await readdir(path.join(outDir, 'assets'));
      const script = assets.find((f) => f.endsWith('.js'));
      if (!script) throw new Error(`vite wrote no script into ${outDir}/assets`);
      return { bundleFile: path.join(outDir, 'assets', script), format: 'esm' };
    }
    case 'webpack':
    case 'rspack':
      return { bundleFile: path.join(outDir, 'app.js'), format: 'script' };
    default:
      return { bundleFile: path.join(outDir, 'app.js'), format: 'esm' };
  }
}

/** Builds with one bundler; rejects with the bundler's own error (message text included) on failure. */
export async function buildWith(bundler: Bundler, request: BuildRequest): Promise<BuildResult> {
  switch (bundler) {
    case 'vite': {
      const { build } = await import('vite');
      await build(configs.vite(request));
      break;
    }
    case 'rollup': {
      const { rollup } = await import('rollup');
      const bundle = await rollup(await configs.rollup(request));
      try {
        await bundle.write(configs.rollupOutput(request));
      } finally {
        await bundle.close();
      }
      break;
    }
    case 'rolldown': {
      const { rolldown } = await import('rolldown');
      const bundle = await rolldown(configs.rolldown(request));
      try {
        await bundle.write(configs.rolldownOutput(request));
      } finally {
        await bundle.close();
      }
      break;
    }
    case 'esbuild': {
      const esbuild = await import('esbuild');
      await esbuild.build(configs.esbuild(request));
      break;
    }
    case 'webpack': {
      const { default: webpack } = await import('webpack');
      await runCompiler(webpack(configs.webpack(request)));
      break;
    }
    case 'rspack': {
      const { rspack } = await import('@rspack/core');
      await runCompiler(rspack(configs.rspack(request)));
      break;
    }
  }
  return bundleOf(bundler, request.outDir);
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
