/**
 * The module the Vite dev server and `vite preview` run the RPC server from. It is generated
 * (`virtual:idl-rpc-server`) and imports, through Vite, the runtime, the user's handler module and
 * the `.idl` module, so that all three share one copy of the runtime and Vite's module graph knows
 * that an edit to any of them must reload it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileIdl, toIdlJson } from '../idl/index.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import type { DevServerOptions } from './options.js';
import { resolveRuntimeFile, RUNTIME_IMPORT } from './runtime-paths.js';

export const SERVER_ENTRY_ID = 'virtual:idl-rpc-server';
export const RESOLVED_SERVER_ENTRY_ID = '\0idl-rpc-server';

/** What the generated entry exports. */
export interface ServerEntryModule {
  runtime: typeof import('../../runtime/index.js');
  handlers: Record<string, unknown>;
  idlModule: Record<string, unknown>;
  idlJson: IdlJson;
}

/** The code of `virtual:idl-rpc-server` for a Vite root. Throws for a broken `.idl`. */
export function serverEntryCode(root: string, server: Required<DevServerOptions>): string {
  const idlFile = path.resolve(root, server.idl);
  const handlersFile = path.resolve(root, server.handlers);
  const idlJson = toIdlJson(compileIdl(readFileSync(idlFile, 'utf8'), idlFile));
  return [
    `import * as runtime from ${JSON.stringify(resolveRuntimeFile(RUNTIME_IMPORT))};`,
    `import * as handlers from ${JSON.stringify(handlersFile)};`,
    `import * as idlModule from ${JSON.stringify(idlFile)};`,
    `export { runtime, handlers, idlModule };`,
    `export const idlJson = ${JSON.stringify(idlJson)};`,
    '',
  ].join('\n');
}

/**
 * The handler objects of the user's module, by interface name: named exports called like the
 * interfaces, or a default export object holding them.
 */
export function pickHandlers(module: Record<string, unknown>, interfaceNames: string[]): Record<string, object> {
  const fromDefault = module.default;
  const source =
    typeof fromDefault === 'object' && fromDefault !== null && interfaceNames.some((name) => name in fromDefault)
      ? (fromDefault as Record<string, unknown>)
      : module;
  const handlers: Record<string, object> = {};
  for (const name of interfaceNames) {
    const handler = source[name];
    if (typeof handler === 'object' && handler !== null) handlers[name] = handler;
  }
  return handlers;
}
