/**
 * Farm's own plugin context, for the two calls unplugin's Farm shell gets wrong in unplugin 3.7:
 * `this.error` hands Farm an `Error` object where Farm takes a message (Farm's Rust side panics),
 * and `this.addWatchFile(file)` passes Farm's `addWatchFile(currentFile, targetFile)` its arguments
 * the other way round (Farm then recompiles the watched file as a module of its own).
 */
import type { UnpluginContext } from 'unplugin';

/** The part of Farm's plugin context used here. */
export interface FarmNativeContext {
  error(message: string): void;
  /** When `targetFile` changes, Farm rebuilds the module `currentFile`. */
  addWatchFile(currentFile: string, targetFile: string): void;
}

/** Farm's context behind an unplugin hook context (only call it when the framework is Farm). */
export function farmContext(context: UnpluginContext | object): FarmNativeContext {
  const native = (context as { getNativeBuildContext(): { context: FarmNativeContext } }).getNativeBuildContext();
  return native.context;
}
