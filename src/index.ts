/**
 * unplugin-idl-rpc: the IDL compiler API. The bundler plugins live at `unplugin-idl-rpc/<bundler>`
 * and the runtime at `unplugin-idl-rpc/runtime`.
 */
export * from './idl/index.js';
