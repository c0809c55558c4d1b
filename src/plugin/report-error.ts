/**
 * Reports a broken `.idl` the way each bundler shows errors best. Every bundler gets
 * `file:line:column` in the message text itself, because webpack and Rspack ignore `loc`.
 */
import type { UnpluginContext, UnpluginContextMeta } from 'unplugin';
import type { IdlModuleError } from './idl-module.js';
import type { IdlFileReadError } from './read-idl-file.js';

/** Bundlers that print `frame` and `loc` themselves (Vite's overlay shows both). */
const SHOWS_FRAME = new Set(['vite', 'rollup', 'rolldown']);

/**
 * Fails the current build with the errors of a broken `.idl`. Note that in esbuild and webpack
 * `this.error` only records the error: the caller must return right after.
 */
export function reportIdlError(context: UnpluginContext, error: IdlModuleError, framework: UnpluginContextMeta['framework']): void {
  const first = error.first;
  const showsFrame = SHOWS_FRAME.has(framework);
  context.error({
    // Rollup, Rolldown and Vite print the frame from `frame`; elsewhere it goes into the text.
    message: showsFrame ? error.summary : error.message,
    id: error.file,
    // Rollup's convention (which Vite and esbuild share): 1-based line, 0-based column.
    loc: { file: first.file, line: first.line, column: first.column - 1 },
    ...(showsFrame ? { frame: error.frame } : {}),
  } as Parameters<UnpluginContext['error']>[0]);
}

/**
 * Fails the current build with an `.idl` the plugin refused to read (too large, not a regular
 * file). The message starts with the file, for the bundlers that ignore `id`. As with
 * {@link reportIdlError}, the caller must return right after.
 */
export function reportUnreadableIdl(context: UnpluginContext, error: IdlFileReadError): void {
  context.error({ message: error.message, id: error.file } as Parameters<UnpluginContext['error']>[0]);
}
