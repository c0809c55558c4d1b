/**
 * The Next.js entry: `import { withIdlRpc } from 'unplugin-idl-rpc/next'`, then
 * `export default withIdlRpc(nextConfig, options)` in `next.config.ts`. Options: {@link IdlRpcPluginOptions}.
 *
 * - Turbopack (`next dev`, `next build`): a rule for `*.idl` in `turbopack.rules` runs the loader
 *   (next-idl-loader.ts) and treats its output as JavaScript.
 * - webpack (`next dev --webpack`, `next build --webpack`): the same loader, as a module rule.
 * - The loader writes `<file>.idl.d.ts` beside each `.idl` it compiles; after the production compile
 *   (either bundler) `compiler.runAfterProductionCompile` writes `openapi.json` / `openrpc.json`
 *   into the build's folder (next-documents.ts). `next dev` writes no documents.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdlLoaderOptions } from './next-idl-loader.js';
import { RECORD_FOLDER, writeNextDocuments } from './next-documents.js';
import { type IdlRpcPluginOptions, resolveOptions } from './options.js';

export type { IdlRpcPluginOptions } from './options.js';

/** The loader file, by path: Next resolves loaders by path or package name. */
const LOADER = fileURLToPath(new URL('./next-idl-loader.js', import.meta.url));

/** The parts of a Next.js config that withIdlRpc reads and extends (kept structural: no type import of `next`). */
export interface NextConfigShape {
  distDir?: string;
  turbopack?: { rules?: Record<string, unknown>; [key: string]: unknown };
  webpack?: ((config: WebpackConfigShape, context: unknown) => WebpackConfigShape) | null;
  compiler?: {
    runAfterProductionCompile?: (metadata: { projectDir: string; distDir: string }) => Promise<void>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The part of webpack's configuration withIdlRpc extends. */
export interface WebpackConfigShape {
  module?: { rules?: unknown[] };
  [key: string]: unknown;
}

/**
 * Returns `nextConfig` with `.idl` imports set up for Turbopack and webpack, and the documents
 * written after `next build`. Everything `nextConfig` sets is kept (its own `webpack` function and
 * `runAfterProductionCompile` hook run after this one's). `options` must be plain JSON: Turbopack
 * passes loader options to a worker process.
 */
export function withIdlRpc<Config extends NextConfigShape>(
  nextConfig: Config,
  options: IdlRpcPluginOptions = {},
): Config & NextConfigShape {
  const resolved = resolveOptions(options); // refuses bad options at config time, before any build
  const distDir = nextConfig.distDir ?? '.next';
  const loader = { loader: LOADER, options: { plugin: options, distDir } satisfies IdlLoaderOptions };
  const userWebpack = nextConfig.webpack;
  const userAfterCompile = nextConfig.compiler?.runAfterProductionCompile;
  return {
    ...nextConfig,
    turbopack: {
      ...nextConfig.turbopack,
      rules: { ...nextConfig.turbopack?.rules, '*.idl': { loaders: [loader], as: '*.js' } },
    },
    webpack(config: WebpackConfigShape, context: unknown) {
      config.module ??= {};
      config.module.rules ??= [];
      config.module.rules.push({ test: /\.idl$/, use: [loader], type: 'javascript/auto' });
      return userWebpack ? userWebpack(config, context) : config;
    },
    compiler: {
      ...nextConfig.compiler,
      async runAfterProductionCompile(metadata: { projectDir: string; distDir: string }) {
        const outFolder = path.resolve(metadata.projectDir, metadata.distDir);
        await writeNextDocuments(resolved, metadata.projectDir, path.join(outFolder, RECORD_FOLDER), outFolder);
        await userAfterCompile?.(metadata);
      },
    },
  };
}
