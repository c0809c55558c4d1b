/**
 * What the OpenRPC documents of the IDL say where OpenRPC 1.3.2 has no word (docs/openrpc.md,
 * "Extensions"). Specification extensions (`x-...`) are allowed on the document, `info`, methods,
 * content descriptors and tags; the OpenRPC tools pass over the ones they do not know.
 */
import { EXTENSION } from '../openapi/error-binding.js';

export const OPENRPC_EXTENSION = {
  /**
   * On a method: `true` when it is a stream method (`stream T`, docs/protocol.md §4). Its `result`
   * then describes each item; the answer is `text/event-stream`, one `rpc.stream.item` notification
   * per item and then the response. OpenRPC knows only one result per call.
   */
  stream: EXTENSION.stream,
  /** On a method: `true` when the method is `@readonly` (it changes nothing); the same as in OpenAPI. */
  readonly: EXTENSION.readonly,
  /** On `info` and on methods: the exact doc comment (tags included), as in OpenAPI. */
  comment: EXTENSION.comment,
  /** On `info`: the IDL namespace, as in OpenAPI. */
  namespace: EXTENSION.namespace,
} as const;

/** The OpenRPC specification version the documents are written in. */
export const OPENRPC_VERSION = '1.3.2';
