/**
 * The compiler part of the plugin: everything the plugin's shell needs of the compiler, the
 * generators, the document converters and the breaking-change check, which it loads on first use
 * (compiler-part-loader.ts) so that making a plugin loads none of it (test/plugin/start-up.test.ts).
 * The build makes it one script of its own (src/build/bundle-plugin.mjs).
 */
export * as breaking from '../breaking/index.js';
export { serverNames } from '../codegen/emit-server.js';
export { compileIdl } from '../idl/compile.js';
export { compileIdlText } from './compile-idl-file.js';
export { compileIdlModel } from './compile-idl-model.js';
export { openApiAsset } from './openapi-asset.js';
export { openRpcAsset } from './openrpc-asset.js';
