/**
 * The seam for bindings that live in their own package entry (the MCP binding,
 * `unplugin-idl-rpc/runtime/mcp`): the server core knows only this shape, so an app that does not
 * mount one carries none of its code. The server hands the binding the parts every binding shares
 * (the method table and the call pipeline, so middleware, validation, limits and tracing apply) and
 * sends it every POST to its path, before the JSON-RPC and REST bindings see the path (other verbs
 * get the server's usual answer: 405, or a CORS preflight's).
 */
import type { RequestContext } from './call-context.js';
import type { FailureReporter, MaybePromise } from './call-outcome.js';
import type { CallPipeline } from './call-pipeline.js';
import type { HttpAnswer } from './http-answer.js';
import type { IdlJson } from './idl-json.js';
import type { MethodEntry } from './method-table.js';
import type { SerializerTable } from './result-serializer.js';

/** What the server gives a mounted binding when it is created. */
export interface BindingParts {
  idl: IdlJson;
  /** `"<Interface>.<method>"` -> its registered handler. */
  methods: ReadonlyMap<string, MethodEntry>;
  /** The server's call pipeline (middleware, validation, deadlines, `onCall`, instrumentation). */
  calls: CallPipeline;
  failures: FailureReporter;
  /** The server's `maxDepth`. */
  maxDepth: number;
  /** The server's `maxBatchSize`. */
  maxBatchSize: number;
  /** The server's result serializers (its `serializers` option), so results have the JSON-RPC wire form. */
  serializers: SerializerTable | undefined;
}

/** One POST to a mounted binding's path, its body already read within `maxBodyBytes`. */
export interface MountedRequest extends RequestContext {
  /** The request path (its query string, if any, is ignored). */
  path: string;
  body: string | Uint8Array;
  contentType?: string;
}

/** A binding mounted on the server at one path. */
export interface MountedBinding {
  /** The path it answers (exact, e.g. `/mcp`). */
  readonly path: string;
  /** Answers a POST to `path`. */
  answer(request: MountedRequest): MaybePromise<HttpAnswer>;
  /**
   * Request headers the binding's clients send besides the server's own (MCP's
   * `MCP-Protocol-Version`): with `cors` on and its default `allowedHeaders`, preflights allow them
   * too, or a page's calls would fail once its client sends one.
   */
  readonly requestHeaders?: readonly string[];
}

/** What a binding's entry gives to a server option (`createRpcServer({ mcp: mcpBinding({...}) })`). */
export type BindingMount = (parts: BindingParts) => MountedBinding;
