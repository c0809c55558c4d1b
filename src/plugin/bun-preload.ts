/**
 * Registers the plugin with Bun's runtime, so that `bun run server.ts` imports `.idl` files
 * directly. Name it in `bunfig.toml`: `preload = ["unplugin-idl-rpc/bun/preload"]`. It takes the
 * default options; for others, preload a file of your own that calls
 * `Bun.plugin(idlRpcRuntime(options))` with `idlRpcRuntime` from `unplugin-idl-rpc/bun`.
 */
import { idlRpcRuntime } from './bun.js';

/** The part of Bun's global used here (Bun's types are not a dependency of this package). */
interface BunRuntime {
  plugin(plugin: unknown): unknown;
}

const bun = (globalThis as { Bun?: BunRuntime }).Bun;
if (!bun) throw new Error('unplugin-idl-rpc/bun/preload runs in Bun only: name it in bunfig.toml `preload`');
bun.plugin(idlRpcRuntime());
