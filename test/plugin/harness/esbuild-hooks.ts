/**
 * An esbuild plugin's load and resolve callbacks with a step of the test's before each: what it
 * records of the calls esbuild makes into the plugin, or what it waits for.
 */
import type { OnLoadArgs, OnLoadResult, OnResolveArgs, OnResolveResult, Plugin, PluginBuild } from 'esbuild';

type Awaitable<T> = T | Promise<T>;

export interface AroundHooks {
  load?: (args: OnLoadArgs) => Awaitable<void>;
  /** After a load callback, with what it answered. */
  loaded?: (args: OnLoadArgs, result: OnLoadResult | null | undefined) => void;
  resolve?: (args: OnResolveArgs) => Awaitable<void>;
}

/** `plugin`, each load and resolve callback it registers run after `around`'s step for that call (and `loaded` after a load). */
export function aroundEsbuildHooks(plugin: Plugin, around: AroundHooks): Plugin {
  return {
    name: plugin.name,
    setup(pluginBuild) {
      // A copy, not a prototype chain: unplugin spreads the build object.
      const wrapped: PluginBuild = {
        ...pluginBuild,
        onLoad: (options, callback) =>
          pluginBuild.onLoad(options, async (args): Promise<OnLoadResult | null | undefined> => {
            await around.load?.(args);
            const result = await callback(args);
            around.loaded?.(args, result);
            return result;
          }),
        onResolve: (options, callback) =>
          pluginBuild.onResolve(options, async (args): Promise<OnResolveResult | null | undefined> => {
            await around.resolve?.(args);
            return callback(args);
          }),
      };
      return plugin.setup(wrapped);
    },
  };
}
