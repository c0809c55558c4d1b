/**
 * Each bundler in watch mode through its JS API, with the same configuration as a one-shot build
 * (harness/bundlers.ts): a session records the outcome of every build, so a test can edit a file
 * and wait for the rebuild it causes.
 */
import path from 'node:path';
import { configs, type Bundler, type BuildRequest } from './bundlers.js';

/** The outcome of one build of a watch session. */
export interface WatchBuild {
  /** The bundler's error text of a failed build; undefined when the build succeeded. */
  error?: string;
}

export interface WatchSession {
  /** Every build so far, the latest last. */
  readonly builds: readonly WatchBuild[];
  close(): Promise<void>;
}

/** Starts watching; resolves once the first build has ended (successfully or not). */
export async function startWatch(bundler: Bundler, request: BuildRequest): Promise<WatchSession> {
  const builds: WatchBuild[] = [];
  let firstBuild: () => void = () => {};
  const firstBuildEnded = new Promise<void>((resolve) => {
    firstBuild = resolve;
  });
  const record = (build: WatchBuild) => {
    builds.push(build);
    firstBuild();
  };
  const close = await watchWith(bundler, request, record);
  await firstBuildEnded;
  return { builds, close };
}

/** A Rollup-style watcher: Rollup's, Rolldown's and that of `vite build --watch`. */
interface RollupLikeWatcher {
  on(event: 'event', listener: (event: RollupLikeEvent) => void): unknown;
  close(): Promise<void>;
}
type RollupLikeEvent = { code: string; error?: Error; result?: { close(): Promise<void> | void } | null };

/** Rollup, Rolldown and Vite: a build runs from `START` to `END`, with an `ERROR` in between when it fails. */
function followRollupLike(watcher: RollupLikeWatcher, record: (build: WatchBuild) => void): () => Promise<void> {
  let build: WatchBuild = {};
  watcher.on('event', (event) => {
    if (event.code === 'START') build = {};
    if (event.code === 'BUNDLE_END' || event.code === 'ERROR') void event.result?.close();
    if (event.code === 'ERROR') build.error = event.error?.message ?? 'unknown error';
    if (event.code === 'END') record(build);
  });
  return () => watcher.close();
}

interface WebpackLikeCompiler {
  watch(
    options: { aggregateTimeout: number },
    handler: (error: Error | null, stats?: WebpackLikeStats) => void,
  ): {
    close(callback: () => void): void;
  };
}
interface WebpackLikeStats {
  hasErrors(): boolean;
  toString(options: unknown): string;
}

function followWebpackLike(compiler: WebpackLikeCompiler | null, record: (build: WatchBuild) => void): () => Promise<void> {
  if (!compiler) throw new Error('no compiler');
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
    if (error) record({ error: error.message });
    else if (stats?.hasErrors()) record({ error: stats.toString({ all: false, errors: true }) });
    else record({});
  });
  return () => new Promise((resolve) => watching.close(() => resolve()));
}

async function watchWith(bundler: Bundler, request: BuildRequest, record: (build: WatchBuild) => void): Promise<() => Promise<void>> {
  switch (bundler) {
    case 'vite': {
      const { build } = await import('vite');
      const config = configs.vite(request);
      // The entry module itself, not index.html: after a failed rebuild, Vite 8's next rebuild
      // of an HTML entry drops the page's scripts (with any plugin or none), so watching through
      // index.html would test that bug instead of this plugin.
      const input = path.join(request.root, request.entry);
      const watcher = await build({
        ...config,
        build: { ...config.build, watch: {}, rolldownOptions: { ...config.build.rolldownOptions, input } },
      });
      return followRollupLike(watcher as unknown as RollupLikeWatcher, record);
    }
    case 'rollup': {
      const { watch } = await import('rollup');
      const watcher = watch({ ...(await configs.rollup(request)), output: configs.rollupOutput(request), watch: { clearScreen: false } });
      return followRollupLike(watcher as unknown as RollupLikeWatcher, record);
    }
    case 'rolldown': {
      const { watch } = await import('rolldown');
      const watcher = watch({ ...configs.rolldown(request), output: configs.rolldownOutput(request) });
      return followRollupLike(watcher as unknown as RollupLikeWatcher, record);
    }
    case 'esbuild': {
      const esbuild = await import('esbuild');
      const options = configs.esbuild(request);
      const context = await esbuild.context({
        ...options,
        plugins: [
          ...options.plugins,
          {
            name: 'record-builds',
            setup(build) {
              build.onEnd((result) => record(result.errors.length > 0 ? { error: result.errors.map((e) => e.text).join('\n') } : {}));
            },
          },
        ],
      });
      await context.watch();
      return () => context.dispose();
    }
    case 'webpack': {
      const { default: webpack } = await import('webpack');
      return followWebpackLike(webpack(configs.webpack(request)) as unknown as WebpackLikeCompiler, record);
    }
    case 'rspack': {
      const { rspack } = await import('@rspack/core');
      return followWebpackLike(rspack(configs.rspack(request)) as unknown as WebpackLikeCompiler, record);
    }
  }
}
