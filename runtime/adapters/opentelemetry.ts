/**
 * OpenTelemetry tracing for the server (`createRpcServer({ instrumentation })`): one SERVER span per
 * call, named and attributed per the RPC and JSON-RPC semantic conventions of
 * `@opentelemetry/semantic-conventions` 1.45.0 (the attribute names are written out here, so that
 * package is not needed at run time), and one span per JSON-RPC batch whose members' spans are its
 * children. A stream method's call is one span from its start to the stream's end, with an event
 * per item sent (`idlrpc.stream.item`). `@opentelemetry/api` is an optional peer dependency, loaded
 * by `openTelemetryTracing`: importing this module costs nothing, and a server without the option
 * never meets OpenTelemetry.
 *
 *     const instrumentation = await openTelemetryTracing();
 *     const server = createCheckoutServer(handlers, { instrumentation });
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { CallInstrumentation, InstrumentedCallStart } from '../call-instrumentation.js';

/** The attribute names and values used, as semantic conventions 1.45.0 name them. */
export const RPC_SEMANTIC_CONVENTIONS = {
  version: '1.45.0',
  /** `rpc.system.name` (stable; it replaced `rpc.system`), with the value `jsonrpc`. */
  systemName: 'rpc.system.name',
  systemNameValue: 'jsonrpc',
  /** `rpc.method` (stable): the fully-qualified method, `CartService.addToCart` (it replaced `rpc.service` + `rpc.method`). */
  method: 'rpc.method',
  /** `rpc.status_code` (stable): the error's code as a string, on errors only. */
  statusCode: 'rpc.status_code',
  /** `error.type` (stable): the error's code as a string, on errors only. */
  errorType: 'error.type',
  /** `jsonrpc.protocol.version` (it replaced `rpc.jsonrpc.version`). */
  protocolVersion: 'jsonrpc.protocol.version',
  /** `jsonrpc.request.id` (it replaced `rpc.jsonrpc.request_id`): absent for notifications and the REST binding. */
  requestId: 'jsonrpc.request.id',
  /** `network.peer.address` (stable): the client's address, when the adapter knows it. */
  peerAddress: 'network.peer.address',
} as const;

/** Not a semantic convention: how many messages a batch span holds. */
export const BATCH_SIZE_ATTRIBUTE = 'idlrpc.batch.size';

/** Not a semantic convention: the span event a stream method's call gets for each item it sends. */
export const STREAM_ITEM_EVENT = 'idlrpc.stream.item';
/** Not a semantic convention: the attribute of a STREAM_ITEM_EVENT, the item's index in the stream (from 0). */
export const STREAM_ITEM_INDEX_ATTRIBUTE = 'idlrpc.stream.item.index';

export interface OpenTelemetryTracingOptions {
  /** The tracer to use. Default `trace.getTracer('unplugin-idl-rpc')` of the registered provider. */
  tracer?: Tracer;
}

/**
 * The `instrumentation` option for OpenTelemetry. Loads `@opentelemetry/api` (rejects, saying so,
 * when it is not installed). Spans start in the active context (an HTTP server span, when HTTP is
 * instrumented), and the handler runs in its call's span, so spans it starts are children of it.
 */
export async function openTelemetryTracing(options: OpenTelemetryTracingOptions = {}): Promise<CallInstrumentation> {
  let api: typeof import('@opentelemetry/api');
  try {
    api = await import('@opentelemetry/api');
  } catch (error) {
    throw new Error('openTelemetryTracing needs @opentelemetry/api: npm install @opentelemetry/api', { cause: error });
  }
  const { context, trace, SpanKind, SpanStatusCode } = api;
  const tracer = options.tracer ?? trace.getTracer('unplugin-idl-rpc');
  const C = RPC_SEMANTIC_CONVENTIONS;

  /** Runs `work` with `span` active, in the context it was started in. */
  const runIn =
    (parent: Context, span: Span) =>
    <T>(work: () => T): T =>
      context.with(trace.setSpan(parent, span), work);

  return {
    startCall(call: InstrumentedCallStart) {
      const attributes: Attributes = { [C.systemName]: C.systemNameValue, [C.method]: call.method, [C.protocolVersion]: '2.0' };
      if (typeof call.id === 'string' || typeof call.id === 'number') attributes[C.requestId] = String(call.id);
      if (call.request.remoteAddress !== undefined) attributes[C.peerAddress] = call.request.remoteAddress;
      const parent = context.active();
      // Span name per the RPC conventions: {rpc.method}.
      const span = tracer.startSpan(call.method, { kind: SpanKind.SERVER, attributes }, parent);
      return {
        run: runIn(parent, span),
        item(index) {
          span.addEvent(STREAM_ITEM_EVENT, { [STREAM_ITEM_INDEX_ATTRIBUTE]: index });
        },
        end(outcome) {
          if (outcome.error !== undefined) {
            const code = String(outcome.error.code);
            span.setAttributes({ [C.statusCode]: code, [C.errorType]: code });
            span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
          }
          span.end();
        },
      };
    },
    startBatch(batch) {
      const parent = context.active();
      const span = tracer.startSpan(
        'jsonrpc batch',
        { kind: SpanKind.SERVER, attributes: { [C.systemName]: C.systemNameValue, [BATCH_SIZE_ATTRIBUTE]: batch.size } },
        parent,
      );
      return { run: runIn(parent, span), end: () => span.end() };
    },
  };
}
