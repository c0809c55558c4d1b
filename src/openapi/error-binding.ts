/**
 * How errors of the RPC-over-REST binding (docs/protocol.md §3) appear in OpenAPI documents. The server
 * answers `POST <base>/<Interface>/<method>` errors with an HTTP error status and a JSON body
 * `{ code, message, data? }`; these are the statuses the generated OpenAPI document describes.
 */
import { ErrorCode } from '../../runtime/errors.js';
import { httpStatusOfError } from '../../runtime/rest-binding.js';

/** Component schema name of the error body (suffixed when an IDL type already uses the name). */
export const RPC_ERROR_SCHEMA_NAME = 'RpcError';

/** Marks the error body schema, so converting the document back does not turn it into a struct. */
export const RPC_ERROR_MARKER = 'x-idl-rpc-error';

/**
 * HTTP status of each kind of error answer, as the runtime's binding answers it (one mapping,
 * `httpStatusOfError`, so the document and the server cannot disagree).
 */
export const ERROR_STATUS = {
  /** Malformed request, invalid params (JSON-RPC -32700, -32600, -32602). */
  invalidRequest: String(httpStatusOfError(ErrorCode.InvalidParams)),
  /** An error declared in the IDL `errors` block and listed in the method's `raises` (any application code). */
  declared: String(httpStatusOfError(1)),
  /** Any other failure of the handler (JSON-RPC -32603). */
  internal: String(httpStatusOfError(ErrorCode.InternalError)),
} as const;

/** The media type of a stream method's answer (Server-Sent Events). */
export const EVENT_STREAM = 'text/event-stream';

/** Vendor extensions that carry what OpenAPI has no place for, so a round trip loses nothing. */
export const EXTENSION = {
  /** On `info`: the IDL namespace (the title is derived from it, but lossy: the case is changed). */
  namespace: 'x-idl-namespace',
  /** On `info`, on tags and on operations: the doc comment of the namespace / interface / method. */
  comment: 'x-idl-comment',
  /** Top level: the declared errors, `[{ code, name, message, description? }]`. */
  errors: 'x-idl-errors',
  /** On an operation: names of the errors the method raises, in IDL order. */
  raises: 'x-idl-raises',
  /** On an enum schema: doc comments of the values, index-aligned with `enum` (a common convention). */
  enumDescriptions: 'x-enum-descriptions',
  /** On an enum schema: the values marked `@deprecated` (OpenAPI cannot mark one value of an enum). */
  deprecatedValues: 'x-deprecated',
  /** On an operation: `true` when the method is `@readonly` (it changes nothing). */
  readonly: 'x-readonly',
  /**
   * On a `get` operation: `true` when it is the GET form of the `post` beside it (a `@readonly`
   * method's read over GET, docs/protocol.md): the same method, so converters read it once.
   */
  read: 'x-idlrpc-read',
  /** On an operation: `true` when the method is a stream (`stream T`: its 200 answer is `text/event-stream`). */
  stream: 'x-idlrpc-stream',
  /**
   * On a `text/event-stream` media type: the schema of each item (OpenAPI 3.2's `itemSchema`, which
   * 3.0 and 3.1 have no word for).
   */
  itemSchema: 'x-itemSchema',
} as const;
