/**
 * `unplugin-idl-rpc/runtime/core`: the runtime without its Node adapters, so it runs anywhere
 * (browsers, workers, fetch-based servers). Generated modules import this entry: a browser build
 * that imports them never meets `node:http`. `unplugin-idl-rpc/runtime` adds the Node adapters.
 */
export * from './client.js';
export { callConvertingMethod } from './client-conversion.js';
// The TypeBox types that generated declarations (`.idl.d.ts`) name, and `Static` for the type of a
// schema's values: an app reaches them through this package, because its package manager need not
// let it resolve `@sinclair/typebox` itself (pnpm installs it below this package only).
export type { Static, TSchema } from '@sinclair/typebox';
export type * from './idl-json.js';
export { idlSchemas, typeSchema, type IdlSchemas, type MethodSchemas } from './schema.js';
export {
  compileValidators,
  generatedValidator,
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
  type AnswerStream,
  type HttpAnswer,
  type HttpRequestLike,
  type RequestContext,
  type RpcContext,
  type RpcLogger,
  type ContractMismatch,
  type ContractMismatchPolicy,
  type CacheOptions,
  type CacheRule,
  type RpcServer,
  type RpcServerOptions,
} from './server.js';
export {
  codePointCount,
  deferToExplainer,
  inheritedProblems,
  integerProblem,
  isBase64Text,
  isDateText,
  isObjectValue,
  isTimestampText,
  markOrNull,
  ownField,
  recordProblem,
  recordProblemAt,
  type ExtendedStruct,
  type ProblemPath,
  type ProblemWalker,
} from './problem-walkers.js';
export { constrainedSchema } from './constraints.js';
export { constraintWalker } from './explain.js';
export { createFetchHandler } from './fetch.js';
export { streamEvent, type StreamEvent, type StreamHandlerResult } from './streams/stream-event.js';
export { jsonStringContent } from './json-text.js';
export type { ResultSerializer, SerializerTable } from './result-serializer.js';
export { isJsonMediaType } from './media-type.js';
export { interfaceFingerprints } from './contract-fingerprint.js';
export type { BodyBudget } from './body-budget.js';
export type { BodyPace, PacedBody } from './body-pace.js';
export type { CallEvent } from './call-observer.js';
export type {
  CallInstrumentation,
  InstrumentedBatch,
  InstrumentedCall,
  InstrumentedCallStart,
  InstrumentedScope,
} from './call-instrumentation.js';
export {
  CorsPolicy,
  DEFAULT_CORS_ALLOWED_HEADERS,
  DEFAULT_CORS_MAX_AGE_SECONDS,
  type CorsOptions,
  type CorsRules,
  type RequestHeaders,
} from './cors.js';
export {
  defineMiddleware,
  type AnyRpcMiddleware,
  type NoValues,
  type ContextOf,
  type RpcMiddleware,
  type RpcMiddlewareCall,
  type RpcNext,
} from './middleware.js';
export { nonTextParamsError, nonTextProblem, nonTextStrings, textStringsOnly } from './text-strings.js';
