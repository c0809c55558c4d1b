/**
 * An RPC server with one stream method, `Ticker.ticks(count int) stream Tick`, for the adapter
 * tests. Until the stream core is in the server, it is a stand-in: the calc server for every other
 * call, and for `Ticker.ticks` a hand-made AnswerStream that frames the handler's items as the
 * wire does (docs/protocol.md), answers `closeStreams()` with the reconnect message, and counts
 * its open streams. The handler is the same in both: `ticks(count, ctx)`, an async generator.
 */
import type { AnswerStream, HttpAnswer } from '../../runtime/http-answer.js';
import { createRpcServer, type RpcServer, type RpcServerOptions } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';

export interface Tick {
  n: number;
  text: string;
}

/** What a stream handler gets of its context here. */
export interface TickContext {
  signal: AbortSignal;
  lastEventId?: string;
}

export type TickHandler = (count: number, ctx: TickContext) => AsyncIterable<Tick>;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

/** The server: `ticks` answers `Ticker.ticks`, everything else is the calc fixture. */
export function streamServer(ticks: TickHandler, options: Partial<RpcServerOptions> = {}): RpcServer {
  const base = createRpcServer({ idl: calcIdl, handlers: calcHandlers, ...options });
  const open = new Set<StandInStream>();
  let closing = false;
  return {
    ...base,
    async handleHttp(request) {
      const text = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
      const message = JSON.parse(text);
      if (message?.method !== 'Ticker.ticks') return base.handleHttp(request);
      if (closing) {
        return { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":"Server busy"}' };
      }
      const controller = new AbortController();
      const lastEventId = request.headers?.['last-event-id'];
      const iterator = ticks(message.params[0], { signal: controller.signal, lastEventId })[Symbol.asyncIterator]();
      const stream: StandInStream = new StandInStream(iterator, controller, message.id, Number(lastEventId ?? 0), () =>
        open.delete(stream),
      );
      open.add(stream);
      const answer: HttpAnswer = { status: 200, headers: { ...SSE_HEADERS }, body: '', stream };
      return answer;
    },
    async closeStreams() {
      closing = true;
      await Promise.all([...open].map((stream) => stream.reconnect()));
    },
    get openStreams() {
      return open.size;
    },
  };
}

type Step = { item: IteratorResult<Tick> } | { error: unknown } | 'stopped';

class StandInStream implements AnswerStream {
  #state: 'open' | 'reconnect' | 'done' = 'open';
  #stop!: () => void;
  readonly #stopped = new Promise<'stopped'>((resolve) => {
    this.#stop = () => resolve('stopped');
  });
  #ended: Promise<unknown> | undefined;
  #eventId: number;

  constructor(
    readonly iterator: AsyncIterator<Tick>,
    readonly controller: AbortController,
    readonly id: unknown,
    lastEventId: number,
    readonly onEnd: () => void,
  ) {
    this.#eventId = lastEventId;
  }

  async next(): Promise<string | undefined> {
    if (this.#state === 'open') {
      const step: Step = await Promise.race([
        this.iterator.next().then(
          (item) => ({ item }),
          (error: unknown) => ({ error }),
        ),
        this.#stopped,
      ]);
      if (this.#state === 'open' && step !== 'stopped') {
        if ('error' in step) return this.#last({ jsonrpc: '2.0', id: this.id, error: { code: -32603, message: String(step.error) } });
        if (step.item.done) return this.#last({ jsonrpc: '2.0', id: this.id, result: null });
        const item = { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: this.id, item: step.item.value } };
        return `id: ${++this.#eventId}\ndata: ${JSON.stringify(item)}\n\n`;
      }
    }
    if (this.#state === 'reconnect') {
      this.#finish();
      return `retry: 1000\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'rpc.stream.reconnect', params: { id: this.id } })}\n\n`;
    }
    return undefined;
  }

  cancel(): void {
    if (this.#state !== 'done') this.#finish();
  }

  /** Ends the stream with the reconnect message (on its next `next()`); resolves once the handler has ended. */
  reconnect(): Promise<unknown> {
    if (this.#state === 'open') {
      this.#state = 'reconnect';
      this.#stop();
      this.controller.abort(new Error('the server is shutting down'));
    }
    return this.#ended ?? this.#stopped;
  }

  #last(message: object): string {
    this.#finish();
    return `data: ${JSON.stringify(message)}\n\n`;
  }

  #finish(): void {
    this.#state = 'done';
    this.#stop();
    this.controller.abort(new Error('the stream has ended'));
    this.#ended = Promise.resolve(this.iterator.return?.()).catch(() => undefined);
    this.onEnd();
  }
}

/** Resolves with `promise`, or rejects once `signal` aborts (how a handler waits and still ends when told). */
export function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}

/** A promise and the function that resolves it. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
