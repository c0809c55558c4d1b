/**
 * What `unplugin-idl-rpc/runtime` means inside a generated `.idl` module: the whole runtime except
 * its Node adapters (`listen`, `createMiddleware`, `createNodeListener`).
 *
 * The generated server part needs `createRpcServer` and the validators, which run anywhere; the
 * runtime's main entry also re-exports the adapters, whose `node:http` import browser builds cannot
 * resolve (esbuild and webpack fail on it before tree-shaking). The plugin maps the import of
 * generated code here; user code importing `unplugin-idl-rpc/runtime` still gets the full entry.
 */
export * from '../../runtime/client.js';
export type * from '../../runtime/idl-json.js';
export * from '../../runtime/schema.js';
export * from '../../runtime/validation.js';
export * from '../../runtime/server.js';
export * from '../../runtime/fetch.js';
