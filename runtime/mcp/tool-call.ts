/**
 * tools/call: one call of the tool's method through the server's call pipeline (so middleware,
 * validation, deadlines, `onCall` and tracing apply as to a JSON-RPC call), its outcome as an MCP
 * tool result. A result goes out as `structuredContent` (wrapped as `{ result }` when it is not an
 * object) and as the same JSON in a text block, written as text at once (SerializedToolResult). Every error of the call (invalid arguments, a
 * declared error, an internal error) is a result with `isError: true` whose text is
 * `{"code","name","message"}` (and `data` when there is some): the agent reads it and may retry.
 */
import type { RequestContext } from '../call-context.js';
import {
  PENDING,
  settleLater,
  type ErrorObject,
  type FailureReporter,
  type JsonRpcId,
  type MaybePromise,
  type Outcome,
} from '../call-outcome.js';
import type { CallPipeline } from '../call-pipeline.js';
import { ErrorCode } from '../errors.js';
import { serializeResult } from '../result-serializer.js';
import { RESULT_PROPERTY } from './tool-schemas.js';
import type { Tool } from './tools.js';

/** An MCP `CallToolResult` with an error. */
export interface ToolError {
  content: { type: 'text'; text: string }[];
  isError: true;
}

/**
 * A successful `CallToolResult` already written as JSON text: the result is serialized once, and
 * the same text is both `structuredContent` and (as a string) the text block. Writing it as an
 * object would serialize the result three times and parse it once (docs/mcp.md, cost of a call).
 */
export class SerializedToolResult {
  constructor(readonly json: string) {}
}

export type ToolResult = SerializedToolResult | ToolError;

/** Names of the errors that are no declared error of the tool's method. */
const RESERVED_ERROR_NAMES: Readonly<Record<number, string>> = {
  [ErrorCode.InvalidParams]: 'InvalidParams',
  [ErrorCode.InternalError]: 'InternalError',
  [ErrorCode.ContractMismatch]: 'ContractMismatch',
  [ErrorCode.TooManyRequests]: 'TooManyRequests',
};

/**
 * Runs one call of `tool` with the `arguments` of tools/call (an object, checked by the caller) and
 * gives `finish` of its result: applied where the call settles, so a call answered later costs no
 * promise step after the call's own (each `.then` measured about a tenth of a small call's cost).
 */
export function callTool<T>(
  calls: CallPipeline,
  failures: FailureReporter,
  tool: Tool,
  args: Record<string, unknown>,
  id: JsonRpcId,
  request: RequestContext,
  finish: (result: ToolResult) => T,
): MaybePromise<T> {
  return settleLater((deliver) => {
    const outcome = calls.execute(tool.entry, args, id, request, (settled) => deliver(finish(toolResult(tool, settled, failures))));
    return outcome === PENDING ? PENDING : finish(toolResult(tool, outcome, failures));
  });
}

function toolResult(tool: Tool, outcome: Outcome, failures: FailureReporter): ToolResult {
  if ('error' in outcome) return errorResult(tool, outcome.error);
  // The result in its wire form, written as JSON-RPC writes it (the method's result serializer:
  // known fields only, Dates and Uint8Arrays by their toJSON), then wrapped as text: no object is
  // built and serialized again.
  let text: string;
  try {
    text = tool.wrapsResult
      ? `${WRAPPED_RESULT_START}${serializeResult(outcome.result ?? null, tool.serializer)}}`
      : serializeResult(outcome.result, tool.serializer);
  } catch (error) {
    return errorResult(tool, (failures.internalError('Serializing the response', error) as { error: ErrorObject }).error);
  }
  // JSON.stringify of a string is V8's native escaping, the cheapest way to write the text block.
  return new SerializedToolResult(`${TEXT_BLOCK_START}${JSON.stringify(text)}${STRUCTURED_CONTENT_START}${text}}`);
}

/** The fixed parts of a successful result's JSON text. */
const TEXT_BLOCK_START = '{"content":[{"type":"text","text":';
const STRUCTURED_CONTENT_START = '}],"structuredContent":';
const WRAPPED_RESULT_START = `{${JSON.stringify(RESULT_PROPERTY)}:`;

function errorResult(tool: Tool, failure: ErrorObject): ToolError {
  const { code, message, data } = failure.code === ErrorCode.InvalidParams ? underArguments(failure) : failure;
  const name = tool.declaredErrors.get(code) ?? RESERVED_ERROR_NAMES[code] ?? 'Error';
  const error = data === undefined ? { code, name, message } : { code, name, message, data };
  let text: string;
  try {
    text = JSON.stringify(error);
  } catch {
    text = JSON.stringify({ code, name, message });
  }
  return { content: [{ type: 'text', text }], isError: true };
}

/** A path of the call pipeline's, which names the JSON-RPC `params`: `params`, `params.item.name`. */
const PARAMS_PATH = /^params(?=$|[.[])/;

/**
 * Invalid arguments with the JSON paths of the tools/call request: the pipeline names a problem
 * by its place in JSON-RPC `params` (`params.item.name`), which is `arguments` in a tools/call
 * (`arguments.item.name`). An error of another shape is left as it is.
 */
function underArguments(failure: ErrorObject): ErrorObject {
  const errors = (failure.data as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return failure;
  const moved = errors.map((problem: { path?: unknown; message?: unknown }) =>
    typeof problem?.path === 'string' ? { ...problem, path: problem.path.replace(PARAMS_PATH, 'arguments') } : problem,
  );
  const first = moved[0] as { path?: unknown; message?: unknown };
  const message = typeof first.path === 'string' ? `Invalid params: ${first.path}: ${String(first.message)}` : failure.message;
  return { ...failure, message, data: { ...(failure.data as object), errors: moved } };
}
