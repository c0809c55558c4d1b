/**
 * OpenTelemetry tracing (runtime/adapters/opentelemetry.ts) with the SDK's in-memory exporter: one
 * SERVER span per call, named and attributed per semantic conventions 1.45.0, errors with their
 * code and status, batch members as children of the batch's span, the handler running in its
 * call's span; the attribute names match the pinned @opentelemetry/semantic-conventions.
 */
import { type Context, type ContextManager, context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_RPC_METHOD,
  ATTR_RPC_STATUS_CODE,
  ATTR_RPC_SYSTEM_NAME,
} from '@opentelemetry/semantic-conventions';
import {
  ATTR_JSONRPC_PROTOCOL_VERSION,
  ATTR_JSONRPC_REQUEST_ID,
  RPC_SYSTEM_NAME_VALUE_JSONRPC,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTelemetryTracing, RPC_SEMANTIC_CONVENTIONS } from '../../runtime/adapters/opentelemetry.js';
import { createRpcServer, type RpcServer } from '../../runtime/index.js';
import { ordersStreamIdl } from './fixtures/orders-stream-idl.js';
import { readAll } from './streams-helpers.js';
import { importNotesModule, notesHandlers, type NotesModule, productionOptions } from './notes-service.js';

/**
 * The smallest context manager: contexts follow synchronous calls (what a batch needs to parent its
 * members; a real setup registers AsyncLocalStorage through the Node SDK, which also follows awaits).
 */
class StackContextManager implements ContextManager {
  #stack: Context[] = [];
  active(): Context {
    return this.#stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#stack = [];
    return this;
  }
}

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let module: NotesModule;
let server: RpcServer;
/** The span active while the handler of getNote ran. */
let spanInHandler: string | undefined;

beforeAll(async () => {
  context.setGlobalContextManager(new StackContextManager());
  module = await importNotesModule();
  const handlers = notesHandlers(module);
  const getNote = handlers.NoteService.getNote;
  handlers.NoteService.getNote = (id, ctx) => {
    spanInHandler = trace.getActiveSpan()?.spanContext().spanId;
    return getNote(id, ctx);
  };
  const instrumentation = await openTelemetryTracing({ tracer: provider.getTracer('test') });
  server = module.createNotesServer(handlers, { ...productionOptions(module), instrumentation });
});
afterAll(() => context.disable());
beforeEach(() => exporter.reset());

const post = (body: unknown, path = '/', headers: Record<string, string> = { authorization: 'Bearer ada' }) =>
  server.handleHttp({
    method: 'POST',
    path,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    remoteAddress: '10.0.0.7',
  });

describe('OpenTelemetry spans', () => {
  it('the names the adapter writes are those of the pinned @opentelemetry/semantic-conventions', () => {
    expect(RPC_SEMANTIC_CONVENTIONS).toMatchObject({
      version: '1.45.0',
      systemName: ATTR_RPC_SYSTEM_NAME,
      systemNameValue: RPC_SYSTEM_NAME_VALUE_JSONRPC,
      method: ATTR_RPC_METHOD,
      statusCode: ATTR_RPC_STATUS_CODE,
      errorType: ATTR_ERROR_TYPE,
      protocolVersion: ATTR_JSONRPC_PROTOCOL_VERSION,
      requestId: ATTR_JSONRPC_REQUEST_ID,
      peerAddress: ATTR_NETWORK_PEER_ADDRESS,
    });
  });

  it('one SERVER span per call, named after the method, with the RPC attributes; the handler runs in it', async () => {
    await post({ jsonrpc: '2.0', id: 7, method: 'NoteService.addNote', params: ['traced'] });
    await post({ jsonrpc: '2.0', id: 'n', method: 'NoteService.getNote', params: ['n1'] });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['NoteService.addNote', 'NoteService.getNote']);
    expect(spans[0].kind).toBe(SpanKind.SERVER);
    expect(spans[0].attributes).toStrictEqual({
      'rpc.system.name': 'jsonrpc',
      'rpc.method': 'NoteService.addNote',
      'jsonrpc.protocol.version': '2.0',
      'jsonrpc.request.id': '7',
      'network.peer.address': '10.0.0.7',
    });
    expect(spans[0].status.code).toBe(SpanStatusCode.UNSET);
    expect(spanInHandler).toBe(spans[1].spanContext().spanId);
  });

  it('an error: rpc.status_code and error.type hold its code, the status its message (middleware rejections and the REST binding too)', async () => {
    await post({ jsonrpc: '2.0', id: 1, method: 'NoteService.getNote', params: ['missing'] });
    await post({ text: 'x' }, '/NoteService/addNote', {});
    const [notFound, unauthorized] = exporter.getFinishedSpans();
    expect(notFound.attributes).toMatchObject({ 'rpc.status_code': '4004', 'error.type': '4004' });
    expect(notFound.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NoteNotFound: missing' });
    expect(unauthorized.name).toBe('NoteService.addNote');
    expect(unauthorized.attributes['jsonrpc.request.id']).toBeUndefined();
    expect(unauthorized.attributes['rpc.status_code']).toBe('4001');
  });

  it('batch members are children of the batch span, which ends after them', async () => {
    await post([
      { jsonrpc: '2.0', id: 1, method: 'NoteService.slow', params: [10] },
      { jsonrpc: '2.0', id: 2, method: 'NoteService.addNote', params: ['b'] },
      { jsonrpc: '2.0', method: 'NoteService.addNote', params: ['notified'] },
    ]);
    const spans = exporter.getFinishedSpans();
    const batch = spans.find((span) => span.name === 'jsonrpc batch')!;
    expect(batch.attributes).toStrictEqual({ 'rpc.system.name': 'jsonrpc', 'idlrpc.batch.size': 3 });
    const members = spans.filter((span) => span !== batch);
    expect(members.map((span) => span.name).sort()).toEqual(['NoteService.addNote', 'NoteService.addNote', 'NoteService.slow']);
    for (const member of members) {
      expect(member.parentSpanContext?.spanId).toBe(batch.spanContext().spanId);
      expect(member.spanContext().traceId).toBe(batch.spanContext().traceId);
    }
    expect(spans.at(-1)).toBe(batch);
  });

  it('without the option a server makes no span', async () => {
    const plain = createRpcServer({ idl: server.idl, handlers: notesHandlers(module) });
    await plain.handleHttp({
      method: 'POST',
      path: '/',
      body: '{"jsonrpc":"2.0","id":1,"method":"AdminService.wipe"}',
      contentType: 'application/json',
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('a stream is one span from its start to its end, with an event per item, and the generator runs in it', async () => {
    const spansInGenerator: (string | undefined)[] = [];
    const instrumentation = await openTelemetryTracing({ tracer: provider.getTracer('test') });
    const streaming = createRpcServer({
      idl: ordersStreamIdl,
      instrumentation,
      handlers: {
        OrderService: {
          watchOrder: async function* () {},
          getOrder: () => ({ id: 'o', status: 'paid' }),
          count: async function* (to: number) {
            for (let n = 1; n <= to; n++) {
              spansInGenerator.push(trace.getActiveSpan()?.spanContext().spanId);
              yield n;
            }
          },
        },
      },
    });
    const answer = await streaming.handleHttp({
      method: 'POST',
      path: '/',
      body: '{"jsonrpc":"2.0","id":3,"method":"OrderService.count","params":[3]}',
      contentType: 'application/json',
    });
    await answer.stream!.next();
    expect(exporter.getFinishedSpans()).toEqual([]);
    await readAll(answer);
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span.name).toBe('OrderService.count');
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['idlrpc.stream.item', { 'idlrpc.stream.item.index': 0 }],
      ['idlrpc.stream.item', { 'idlrpc.stream.item.index': 1 }],
      ['idlrpc.stream.item', { 'idlrpc.stream.item.index': 2 }],
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(spansInGenerator).toEqual([span.spanContext().spanId, span.spanContext().spanId, span.spanContext().spanId]);
  });
});
