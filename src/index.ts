/**
 * unplugin-idl-rpc: the compiler API (parse, check, JSON form, format), the TypeScript generator and
 * the OpenAPI converter. The bundler plugins live at `unplugin-idl-rpc/<bundler>` and the runtime at
 * `unplugin-idl-rpc/runtime`.
 */
export * from './idl/index.js';
export * from './codegen/index.js';
export * from './openapi/index.js';
