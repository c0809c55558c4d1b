/**
 * The MCP requests the binding answers, one JSON-RPC request at a time: initialize (capability
 * negotiation: tools only), ping, tools/list (pages of `pageSize` tools, the cursor an offset),
 * tools/call (tool-call.ts), and with resources (resources.ts) resources/list, resources/read and
 * resources/templates/list (none). Any other method is -32601. Protocol errors (an unknown tool, a
 * bad cursor, an unknown resource: -32002) are JSON-RPC errors; errors of a call are tool results.
 */
import type { RequestContext } from '../call-context.js';
import type { FailureReporter, JsonRpcId, MaybePromise } from '../call-outcome.js';
import type { CallPipeline } from '../call-pipeline.js';
import { ErrorCode } from '../errors.js';
import { negotiatedVersion } from './protocol-version.js';
import type { Resource } from './resources.js';
import { callTool } from './tool-call.js';
import type { Tool } from './tools.js';

/** A JSON-RPC response to one MCP request. */
export type McpResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } };

/** What the server says about itself in `initialize`. */
export interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
}

export interface McpMessagesOptions {
  tools: ReadonlyMap<string, Tool>;
  /** By URI; none: no `resources` capability. */
  resources: ReadonlyMap<string, Resource>;
  calls: CallPipeline;
  failures: FailureReporter;
  serverInfo: McpServerInfo;
  instructions?: string;
  pageSize: number;
}

/** Answers the requests of one binding. */
export class McpMessages {
  private readonly toolList;
  private readonly resourceList;

  constructor(private readonly options: McpMessagesOptions) {
    this.toolList = [...options.tools.values()].map((tool) => tool.definition);
    this.resourceList = [...options.resources.values()].map((resource) => resource.listed);
  }

  /**
   * `finish` of the response to one request (`method` a string, `id` a string or number: checked by
   * the caller); a tool call's is applied where the call settles, with no promise step after it.
   */
  answer<T>(
    id: JsonRpcId,
    method: string,
    params: unknown,
    request: RequestContext,
    finish: (response: McpResponse) => T,
  ): MaybePromise<T> {
    if (method === 'tools/call') return this.callTool(id, params, request, finish);
    return finish(this.answerAtOnce(id, method, params));
  }

  /** The response to a request other than tools/call: none of them waits for anything. */
  private answerAtOnce(id: JsonRpcId, method: string, params: unknown): McpResponse {
    switch (method) {
      case 'initialize':
        return result(id, this.initialize(params));
      case 'ping':
        return result(id, {});
      case 'tools/list':
        return this.listTools(id, params);
      case 'resources/list':
        return this.options.resources.size === 0 ? notFound(id, method) : result(id, { resources: this.resourceList });
      case 'resources/templates/list':
        return this.options.resources.size === 0 ? notFound(id, method) : result(id, { resourceTemplates: [] });
      case 'resources/read':
        return this.options.resources.size === 0 ? notFound(id, method) : this.readResource(id, params);
      default:
        return notFound(id, method);
    }
  }

  private initialize(params: unknown): unknown {
    const { serverInfo, instructions } = this.options;
    return {
      protocolVersion: negotiatedVersion(objectOf(params)?.protocolVersion),
      capabilities:
        this.options.resources.size === 0
          ? { tools: { listChanged: false } }
          : { tools: { listChanged: false }, resources: { listChanged: false } },
      serverInfo,
      ...(instructions === undefined ? {} : { instructions }),
    };
  }

  private listTools(id: JsonRpcId, params: unknown): McpResponse {
    const cursor = objectOf(params)?.cursor;
    let start = 0;
    if (cursor !== undefined) {
      start = typeof cursor === 'string' && /^[1-9]\d{0,8}$/.test(cursor) ? Number(cursor) : -1;
      if (start < 0 || start >= this.toolList.length) return error(id, ErrorCode.InvalidParams, 'Invalid params: unknown cursor');
    }
    const end = start + this.options.pageSize;
    const tools = this.toolList.slice(start, end);
    return result(id, end < this.toolList.length ? { tools, nextCursor: String(end) } : { tools });
  }

  private readResource(id: JsonRpcId, params: unknown): McpResponse {
    const uri = objectOf(params)?.uri;
    if (typeof uri !== 'string')
      return error(id, ErrorCode.InvalidParams, 'Invalid params: resources/read needs the resource in params.uri');
    const resource = this.options.resources.get(uri);
    if (resource === undefined) return error(id, RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
    return result(id, { contents: [{ uri, mimeType: resource.listed.mimeType, text: resource.text }] });
  }

  private callTool<T>(id: JsonRpcId, params: unknown, request: RequestContext, finish: (response: McpResponse) => T): MaybePromise<T> {
    const call = objectOf(params);
    const name = call?.name;
    if (typeof name !== 'string')
      return finish(error(id, ErrorCode.InvalidParams, 'Invalid params: tools/call needs the tool name in params.name'));
    const tool = this.options.tools.get(name);
    if (tool === undefined) return finish(error(id, ErrorCode.InvalidParams, `Unknown tool: ${name}`));
    const args = call?.arguments ?? {};
    if (objectOf(args) === undefined) {
      return finish(
        result(id, {
          content: [
            {
              type: 'text',
              text: JSON.stringify({
                code: ErrorCode.InvalidParams,
                name: 'InvalidParams',
                message: 'Invalid params: arguments must be an object',
              }),
            },
          ],
          isError: true,
        }),
      );
    }
    const { calls, failures } = this.options;
    return callTool(calls, failures, tool, args as Record<string, unknown>, id, request, (toolResult) => finish(result(id, toolResult)));
  }
}

/** MCP's "Resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

function notFound(id: JsonRpcId, method: string): McpResponse {
  return error(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

function result(id: JsonRpcId, value: unknown): McpResponse {
  return { jsonrpc: '2.0', id, result: value };
}

/** A JSON-RPC error response. */
export function error(id: JsonRpcId, code: number, message: string): McpResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
