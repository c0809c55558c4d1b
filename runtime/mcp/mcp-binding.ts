/**
 * The MCP binding over Streamable HTTP (protocol revision 2025-11-25, down to 2025-06-18 and
 * 2025-03-26; docs/mcp.md), stateless: no session id, every POST stands alone. Mounted on a server
 * with `createRpcServer({ mcp: mcpBinding({...}) })`, it answers POSTs to its path: the Origin
 * check (403), the media type (415), the `MCP-Protocol-Version` header (400 when unknown), the
 * body's JSON-RPC messages (a batch only for 2025-03-26), 202 when they hold no request, else the
 * responses as `application/json`. Other verbs get the server's 405 (there is no server-initiated
 * stream, and no session to DELETE).
 */
import type { MaybePromise } from '../call-outcome.js';
import { ErrorCode } from '../errors.js';
import { copyAnswer, jsonHeaders, UNSUPPORTED_MEDIA_TYPE, type HttpAnswer } from '../http-answer.js';
import { parseJsonBody } from '../json-body.js';
import { resultSerializers } from '../result-serializer.js';
import { isJsonMediaType } from '../media-type.js';
import type { BindingMount, BindingParts, MountedBinding, MountedRequest } from '../mounted-binding.js';
import { error, McpMessages, type McpResponse, type McpServerInfo } from './mcp-messages.js';
import { OriginCheck } from './origin-check.js';
import { SerializedToolResult } from './tool-call.js';
import { allowsBatches, ASSUMED_PROTOCOL_VERSION, isProtocolVersion, PROTOCOL_VERSIONS } from './protocol-version.js';
import { buildResources, type McpResources } from './resources.js';
import { buildTools } from './tools.js';

export interface McpOptions {
  /** Where the binding answers. Default `/mcp`. */
  path?: string;
  /**
   * What is exposed as tools: interface names (every method but stream methods) and
   * `"<Interface>.<method>"` names. Default none: the binding lists no tool.
   */
  expose?: readonly string[];
  /**
   * Origins allowed besides the defaults (no `Origin`, loopback origins), e.g. the server's own
   * public origin `['https://shop.example.com']` for its web pages. Others get 403 (origin-check.ts).
   */
  allowedOrigins?: readonly string[];
  /** The `serverInfo` of `initialize`. Default the IDL's root namespace, version `1.0.0`. */
  serverInfo?: McpServerInfo;
  /** The `instructions` of `initialize` (how to use the tools, for the agent). Default none. */
  instructions?: string;
  /** Tools per tools/list page. Default 100. */
  pageSize?: number;
  /**
   * Descriptions of the API agents may read as resources: the IDL source, the OpenAPI and OpenRPC
   * documents. Default none (and no `resources` capability).
   */
  resources?: McpResources;
}

/** The header naming the client's protocol revision after `initialize` (lower-case, as Node gives headers). */
const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/** The MCP binding, to give to `createRpcServer`'s `mcp` option. Throws at start-up on bad options. */
export function mcpBinding(options: McpOptions = {}): BindingMount {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/')) throw new Error(`mcpBinding: path must start with '/', got ${JSON.stringify(path)}`);
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`mcpBinding: pageSize must be a positive integer, got ${pageSize}`);
  const origins = new OriginCheck(options.allowedOrigins);
  return (parts) => createMcpBinding(parts, { ...options, path, pageSize }, origins);
}

function createMcpBinding(
  parts: BindingParts,
  options: McpOptions & { path: string; pageSize: number },
  origins: OriginCheck,
): MountedBinding {
  const messages = new McpMessages({
    tools: buildTools(parts.idl, parts.methods, options.expose ?? [], resultSerializers(parts.serializers, parts.methods.keys())),
    resources: buildResources(parts.idl.rootNamespace, options.resources),
    calls: parts.calls,
    failures: parts.failures,
    serverInfo: options.serverInfo ?? { name: parts.idl.rootNamespace, version: '1.0.0' },
    instructions: options.instructions,
    pageSize: options.pageSize,
  });

  function answer(request: MountedRequest): MaybePromise<HttpAnswer> {
    const headers = request.headers;
    if (!origins.allows(headers)) return refused(403, ErrorCode.InvalidRequest, 'Forbidden: this Origin may not reach the MCP server');
    if (!isJsonMediaType(request.contentType ?? headers?.['content-type'])) return copyAnswer(UNSUPPORTED_MEDIA_TYPE);
    const version = headers?.[PROTOCOL_VERSION_HEADER] ?? ASSUMED_PROTOCOL_VERSION;
    if (!isProtocolVersion(version)) {
      return refused(
        400,
        ErrorCode.InvalidRequest,
        `Bad Request: unsupported MCP-Protocol-Version ${quotedHeader(version)} (supported: ${PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    const parsed = parseJsonBody(request.body, parts.maxDepth);
    if (!parsed.ok) return refused(400, ErrorCode.ParseError, `Parse error: ${parsed.detail}`);
    const body = parsed.value;
    if (!Array.isArray(body)) {
      const single = answerMessage(body, request, jsonAnswer);
      if (single === undefined) return accepted();
      return 'invalid' in single ? refused(400, ErrorCode.InvalidRequest, single.invalid) : single;
    }
    if (!allowsBatches(version))
      return refused(400, ErrorCode.InvalidRequest, `Invalid Request: MCP ${version} allows no JSON-RPC batches`);
    if (body.length === 0) return refused(400, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    if (body.length > parts.maxBatchSize) {
      return refused(
        400,
        ErrorCode.InvalidRequest,
        `Invalid Request: batch of ${body.length} messages exceeds the limit of ${parts.maxBatchSize}`,
      );
    }
    const answers: MaybePromise<McpResponse>[] = [];
    for (const message of body) {
      const member = answerMessage(message, request, asResponse);
      if (member === undefined) continue;
      answers.push('invalid' in member ? error(null, ErrorCode.InvalidRequest, member.invalid) : member);
    }
    return answers.length === 0 ? accepted() : Promise.all(answers).then(jsonAnswer);
  }

  /** `finish` of the response to one message; undefined for a notification or a client's response (nothing to send). */
  function answerMessage<T extends object>(
    message: unknown,
    request: MountedRequest,
    finish: (response: McpResponse) => T,
  ): MaybePromise<T> | { invalid: string } | undefined {
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return { invalid: 'Invalid Request: not a JSON-RPC message' };
    const { jsonrpc, id, method } = message as Record<string, unknown>;
    if (jsonrpc !== '2.0') return { invalid: 'Invalid Request: jsonrpc must be "2.0"' };
    if (typeof method !== 'string') {
      // A response to a request of the server (it sends none), or nothing valid.
      return 'result' in message || 'error' in message ? undefined : { invalid: 'Invalid Request: method must be a string' };
    }
    if (!('id' in message)) return undefined; // notifications/initialized, notifications/cancelled, ...
    if (typeof id !== 'string' && typeof id !== 'number') return { invalid: 'Invalid Request: id must be a string or a number' };
    return messages.answer(id, method, (message as { params?: unknown }).params, request, finish);
  }

  return { path: options.path, answer, requestHeaders: [PROTOCOL_VERSION_HEADER] };
}

const asResponse = (response: McpResponse): McpResponse => response;

function jsonAnswer(body: McpResponse | McpResponse[]): HttpAnswer {
  const text = Array.isArray(body) ? `[${body.map(responseText).join(',')}]` : responseText(body);
  return { status: 200, headers: jsonHeaders(), body: text };
}

/** One response as JSON text; a tool result that is text already is written into it as it is. */
function responseText(response: McpResponse): string {
  if ('result' in response && response.result instanceof SerializedToolResult) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${response.result.json}}`;
  }
  return JSON.stringify(response);
}

/** The longest header value an error message quotes in full: a huge one is not sent back whole. */
const QUOTED_HEADER_CHARS = 40;

/** A header value quoted for an error message, cut after QUOTED_HEADER_CHARS characters. */
function quotedHeader(value: string): string {
  return value.length <= QUOTED_HEADER_CHARS
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, QUOTED_HEADER_CHARS))}... (${value.length} characters)`;
}

function accepted(): HttpAnswer {
  return { status: 202, headers: {}, body: '' };
}

/** An HTTP error status with a JSON-RPC error (no id) as its body, as the specification suggests. */
function refused(status: number, code: number, message: string): HttpAnswer {
  return { status, headers: jsonHeaders(), body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }) };
}
