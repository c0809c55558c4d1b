/**
 * The Bun plugin: `import idlRpc from 'unplugin-idl-rpc/bun'`, for `Bun.build({ plugins: [idlRpc()] })`.
 * For `bun run` (Bun's runtime), preload `unplugin-idl-rpc/bun/preload` (see bun-preload.ts) or
 * register {@link idlRpcRuntime} yourself. Options: {@link IdlRpcPluginOptions}. Needs Bun 1.2.22 or newer.
 */
import { createBunPlugin } from 'unplugin';
import { IDL_ID_FILTER } from './idl-id.js';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';
import type { IdlRpcPluginOptions } from './options.js';
import { GENERATED_IMPORT_FILTER } from './runtime-paths.js';

export type { IdlRpcPluginOptions } from './options.js';

/** Where a Bun resolve or load hook applies. */
interface HookOptions {
  filter: RegExp;
  namespace?: string;
}

/** The part of Bun's plugin builder used here. */
interface BunPluginBuilder {
  config?: object;
  onStart?: unknown;
  onEnd?: unknown;
  onResolve(options: HookOptions, callback: unknown): unknown;
  onLoad(options: HookOptions, callback: unknown): unknown;
}

interface BunPlugin {
  name: string;
  setup(build: BunPluginBuilder): unknown;
}

/** The ids unplugin's Bun shell asks the plugin about; it registers its hooks for every id (`/.*\/`). */
const RESOLVED_IDS = new RegExp(`${GENERATED_IMPORT_FILTER.source}|^virtual:idl-rpc-server$`);

/**
 * unplugin's Bun shell registers its resolve and load hooks for every module, which makes Bun call
 * into JavaScript for each file of the app, and Bun's runtime refuses a load hook that answers
 * nothing. The plugin only ever answers `.idl` files and the imports of generated code: its hooks are
 * registered for those alone. Bun's runtime also has no build to start or end and no `config`: they
 * are filled in as a build without hooks.
 */
function narrowed(plugin: BunPlugin): BunPlugin {
  return {
    name: plugin.name,
    setup(build) {
      const noHook = () => {};
      const narrowedBuild = Object.create(build, {
        config: { value: build.config ?? {} },
        onStart: { value: build.onStart ?? noHook },
        onEnd: { value: build.onEnd ?? noHook },
        onResolve: {
          value: (options: HookOptions, callback: unknown) => build.onResolve({ ...options, filter: RESOLVED_IDS }, callback),
        },
        onLoad: {
          value: (options: HookOptions, callback: unknown) =>
            build.onLoad({ ...options, ...(options.namespace === 'file' ? { filter: IDL_ID_FILTER } : {}) }, callback),
        },
      });
      return plugin.setup(narrowedBuild);
    },
  };
}

const bunPlugin = /* #__PURE__ */ createBunPlugin(unpluginFactory) as IdlRpcUnplugin['bun'];

/** The plugin for `Bun.build`: `plugins: [idlRpc(options)]`. */
export default function idlRpc(options?: IdlRpcPluginOptions): BunPlugin {
  return narrowed(bunPlugin(options) as BunPlugin);
}

/**
 * The plugin for Bun's runtime: `Bun.plugin(idlRpcRuntime(options))` in a preloaded file. `.idl`
 * modules load; no openapi.json is written (nothing is bundled).
 */
export function idlRpcRuntime(options?: IdlRpcPluginOptions): BunPlugin & { target: 'bun' } {
  return { ...idlRpc(options), target: 'bun' };
}
