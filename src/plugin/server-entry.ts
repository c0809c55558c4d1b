/**
 * The module the Vite dev server and `vite preview` run the RPC server from. It is generated
 * (`virtual:idl-rpc-server`) and imports, through Vite, the user's handler module, the `.idl`
 * module (whose generated `create<Namespace>Server` brings the validators compiled ahead of time)
 * and the runtime's middleware, so that all of them share one copy of the runtime and Vite's module
 * graph knows that an edit to the handlers or the `.idl` must reload it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stringLiteral } from '../codegen/source-text.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import type { RpcServer, RpcServerOptions } from '../../runtime/server.js';
import type { IdlModel } from '../idl/model.js';
import { openApiAsset, openRpcAsset } from './compiler.js';
import { loadCompilerPart } from './compiler-part-loader.js';
import type { ResolvedDevServerOptions, ResolvedOpenApiOptions, ResolvedOpenRpcOptions } from './options.js';
import type { ResolvedMockOptions } from './mock-options.js';
import { resolveRuntimeFile, RUNTIME_IMPORT, RUNTIME_MCP_IMPORT, RUNTIME_MOCK_IMPORT } from './runtime-paths.js';

export const SERVER_ENTRY_ID = 'virtual:idl-rpc-server';
export const RESOLVED_SERVER_ENTRY_ID = '\0idl-rpc-server';

/** What the generated entry exports. */
export interface ServerEntryModule {
  /** The user's handler module. */
  handlers: Record<string, unknown>;
  /** The IDL as JSON, from the `.idl` module. */
  idlJson: IdlJson;
  /** The `.idl` module's `create<Namespace>Server`. */
  createServer(handlers: Record<string, object>, options?: Omit<RpcServerOptions, 'idl' | 'handlers' | 'validators'>): RpcServer;
  /** The runtime's connect middleware. */
  createMiddleware: typeof import('../../runtime/node.js').createMiddleware;
  /** The OpenRPC document of the `.idl` (what `rpc.discover` answers); undefined with `openrpc: false`. */
  openRpcDocument?: object;
  /** With `server.mcp` only (an entry without it imports no MCP code): the MCP binding's options maker. */
  mcpBinding?: typeof import('../../runtime/mcp/index.js').mcpBinding;
  /** With `server.mcp` only: the runtime's Node listener, which hosts the MCP server at its path. */
  createNodeListener?: typeof import('../../runtime/node.js').createNodeListener;
  /** With `server.mcp` only: the MCP resources, the `.idl` source and the documents of the `.idl`. */
  mcpResources?: import('../../runtime/mcp/index.js').McpResources;
  /** In mock mode only (an entry without it imports no mock code): the mock handlers, which win over `handlers`. */
  mockHandlers?: Record<string, object>;
}

/** The documents an entry describes its `.idl` with (each `false` when the plugin writes none). */
export interface EntryDocuments {
  openapi: ResolvedOpenApiOptions | false;
  openrpc: ResolvedOpenRpcOptions | false;
  /** Mock mode (the plugin's `mock`, `mockSeed`); undefined: off. */
  mock?: ResolvedMockOptions;
}

/**
 * The code of `virtual:idl-rpc-server` for a Vite root (for a broken `.idl`, code that fails with its
 * error). With `openrpc` on, the entry carries the OpenRPC document of the `.idl`, which the hosted
 * server answers `rpc.discover` with (the runtime never makes one). With `server.mcp`, it also
 * imports the MCP binding and carries its resources: the `.idl` source as it is now and the OpenAPI
 * document of the `.idl` (an edit of the `.idl` reloads the entry, so both follow it).
 */
export async function serverEntryCode(
  root: string,
  server: ResolvedDevServerOptions,
  documents: EntryDocuments = { openapi: false, openrpc: false },
): Promise<string> {
  const idlFile = path.resolve(root, server.idl);
  const { compileIdl, serverNames } = await loadCompilerPart();
  let names: ReturnType<typeof serverNames>;
  let model: IdlModel;
  let source: string;
  try {
    source = readFileSync(idlFile, 'utf8');
    model = compileIdl(source, idlFile);
    names = serverNames(model);
  } catch {
    // A broken `.idl`: import it anyway, so that loading fails with the `.idl` module's own error
    // and Vite records the dependency that reloads this entry once the file is fixed.
    return `export * from ${stringLiteral(idlFile)};\n`;
  }
  const { openapi, openrpc } = documents;
  // Mock mode may run without a handler module: then there are no real handlers.
  const handlersImport =
    server.handlers === undefined
      ? 'const handlers = {};'
      : `import * as handlers from ${stringLiteral(path.resolve(root, server.handlers))};`;
  const lines = [
    handlersImport,
    `import { ${names.create} as createServer, ${names.idl} as idlJson } from ${stringLiteral(idlFile)};`,
    `import { createMiddleware } from ${stringLiteral(resolveRuntimeFile(RUNTIME_IMPORT))};`,
    `export { handlers, idlJson, createServer, createMiddleware };`,
    `export const openRpcDocument = ${openrpc ? (await openRpcAsset([model], openrpc)).source.trimEnd() : 'undefined'};`,
  ];
  if (documents.mock) lines.push(...mockEntryLines(documents.mock));
  if (server.mcp) lines.push(...mcpEntryLines(source, openapi ? (await openApiAsset([model], openapi)).source.trimEnd() : undefined));
  return `${lines.join('\n')}\n`;
}

/** The entry's MCP part: the binding, the Node listener that hosts it, and its resources. */
function mcpEntryLines(idlSource: string, openApiDocument: string | undefined): string[] {
  return [
    `import { mcpBinding } from ${stringLiteral(resolveRuntimeFile(RUNTIME_MCP_IMPORT))};`,
    `import { createNodeListener } from ${stringLiteral(resolveRuntimeFile(RUNTIME_IMPORT))};`,
    `export { mcpBinding, createNodeListener };`,
    `export const mcpResources = { idl: ${stringLiteral(idlSource)}, openApi: ${openApiDocument ?? 'undefined'}, openRpc: openRpcDocument };`,
  ];
}

/** The entry's mock part: handlers made from the IDL JSON by the runtime's mock (runtime/mock/). */
function mockEntryLines(mock: ResolvedMockOptions): string[] {
  const options = { seed: mock.seed, ...(mock.interfaces ? { interfaces: mock.interfaces } : {}) };
  return [
    `import { createMockHandlers } from ${stringLiteral(resolveRuntimeFile(RUNTIME_MOCK_IMPORT))};`,
    `export const mockHandlers = createMockHandlers(idlJson, ${JSON.stringify(options)});`,
  ];
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

/**
 * Why the handler module serves nothing, or undefined when it exports a handler object for at
 * least one interface: without one every call would answer "method not found", and nothing would
 * say that the exports are named otherwise (`export const LibrarySvc`). Lists what the module does
 * export, so the misnamed one stands out.
 */
export function missingHandlersProblem(module: Record<string, unknown>, interfaceNames: string[]): string | undefined {
  if (interfaceNames.length === 0 || Object.keys(pickHandlers(module, interfaceNames)).length > 0) return undefined;
  const fromDefault = module.default;
  const defaultIsObject = typeof fromDefault === 'object' && fromDefault !== null;
  const exported = Object.keys(module)
    .filter((name) => !(defaultIsObject && name === 'default'))
    .map((name) => describeExport(name, module[name], interfaceNames));
  if (defaultIsObject) {
    const held = Object.keys(fromDefault).map((name) =>
      describeExport(name, (fromDefault as Record<string, unknown>)[name], interfaceNames),
    );
    exported.push(`default export holding ${held.length > 0 ? `{ ${held.join(', ')} }` : 'nothing'}`);
  }
  return (
    `exports no object named after an interface of the IDL (${interfaceNames.join(', ')}), so every call answers "method not found"; ` +
    `it exports ${exported.length > 0 ? exported.join(', ') : 'nothing'}`
  );
}

/** An export's name, with its kind when it is named like an interface but is no object (a class, say). */
function describeExport(name: string, value: unknown, interfaceNames: string[]): string {
  if (name === 'default' || !interfaceNames.includes(name)) return name;
  return `${name} (a ${value === null ? 'null' : typeof value}, not an object)`;
}
