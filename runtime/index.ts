/**
 * `unplugin-idl-rpc/runtime`: everything generated code runs on, with the Node adapters. Browser
 * code should import `unplugin-idl-rpc/runtime/client` (no TypeBox, no server); code that must run
 * without Node can import `unplugin-idl-rpc/runtime/core`.
 */
export * from './core.js';
export { createNodeListener, listen, createMiddleware, type ListenOptions, type MiddlewareOptions } from './node.js';
export type { RpcHttpServer, ShutdownOptions, ShutdownResult } from './shutdown.js';
