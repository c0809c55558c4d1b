/**
 * Reports a broken `.idl` the way each bundler shows errors best. Every bundler gets
 * `file:line:column` in the message text itself, because webpack and Rspack ignore `loc`.
 */
import type { UnpluginContext, UnpluginContextMeta } from 'unplugin';
import type { IdlModuleError } from '../codegen/idl-module-error.js';
import type { IdlFileReadError } from './read-idl-file.js';
import { farmContext } from './farm-context.js';

/** Bundlers that print `frame` and `loc` themselves (Vite's overlay shows both). */
const SHOWS_FRAME = new Set(['vite', 'rollup', 'rolldown']);

/**
 * Fails the current build with the errors of a broken `.idl`. Note that in esbuild and webpack
 * `this.error` only records the error: the caller must return right after.
 */
export function reportIdlError(context: UnpluginContext, error: IdlModuleError, framework: UnpluginContextMeta['framework']): void {
  // Farm takes the message text (see farm-context.ts); it prints the frame in it as it is.
  if (framework === 'farm') return farmContext(context).error(error.message);
  const first = error.first;
  const showsFrame = SHOWS_FRAME.has(framework);
  const vite = framework === 'vite';
  // Rollup, Rolldown and Vite print the frame from `frame`; elsewhere it goes into the text.
  const reported = Object.assign(new Error(showsFrame ? error.summary : error.message), {
    id: error.file,
    // Rollup's convention (Rolldown's and esbuild's too): 1-based line, 0-based column. Vite's
    // overlay prints `file:line:column` from `loc` as it is, so there it is our 1-based column.
    loc: { file: first.file, line: first.line, column: vite ? first.column : first.column - 1 },
    // Vite's overlay trims the frame: a frame that starts with spaces would lose them.
    ...(showsFrame ? { frame: error.frame(vite ? 'flush' : 'marked') } : {}),
  });
  // An Error (not a plain object), so that Vite's module runner has a stack to print after the
  // message; but an empty one: the plugin's own call frames would only hide the IDL's location.
  reported.stack = '';
  context.error(reported as Parameters<UnpluginContext['error']>[0]);
}

/**
 * Fails the current build with an `.idl` the plugin refused to read (too large, not a regular
 * file). The message starts with the file, for the bundlers that ignore `id`. As with
 * {@link reportIdlError}, the caller must return right after.
 */
export function reportUnreadableIdl(context: UnpluginContext, error: IdlFileReadError, framework: UnpluginContextMeta['framework']): void {
  if (framework === 'farm') return farmContext(context).error(error.message);
  context.error({ message: error.message, id: error.file } as Parameters<UnpluginContext['error']>[0]);
}
