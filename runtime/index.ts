/**
 * `unplugin-idl-rpc/runtime`: everything generated code runs on. Browser code should import
 * `unplugin-idl-rpc/runtime/client` instead, which leaves out TypeBox and the server.
 */
export * from './client.js';
export type * from './idl-json.js';
export { idlSchemas, typeSchema, resultSchema, structSchema, qualifiedMethodName, MAX_SAFE_INT, type IdlSchemas, type MethodSchemas } from './schema.js';
export {
  compileValidators,
  formatPath,
  typeboxValidator,
  MAX_ISSUES,
  type MethodValidators,
  type ValidationIssue,
  type Validator,
  type ValidatorTable,
} from './validation.js';
export {
  createRpcServer,
  httpStatusOfError,
  DEFAULTS,
  type HttpAnswer,
  type HttpRequestLike,
  type RequestContext,
  type RpcContext,
  type RpcLogger,
  type RpcServer,
  type RpcServerOptions,
} from './server.js';
export { createNodeListener, listen, listenAddress, createMiddleware, type ListenOptions, type MiddlewareOptions } from './node.js';
export { createFetchHandler } from './fetch.js';
