/**
 * One open stream: the `AnswerStream` an adapter reads. It pulls the handler's iterator only when
 * the adapter asks for a chunk (`next()`), so a slow reader never makes the server hold more than
 * the one item it asked for; it writes each item (checked, serialized, framed), the heartbeats
 * while the handler is quiet, and exactly one final event: the end, the error, or a reconnect
 * message (shutdown, a time limit). Cancelling (the client went away) aborts the handler's signal
 * and calls the iterator's `return()`, so an async generator's `finally` runs.
 */
import type { RequestContext } from '../call-context.js';
import type { FailureReporter, Outcome } from '../call-outcome.js';
import type { AnswerStream } from '../http-answer.js';
import { type ResultSerializer, serializeResult } from '../result-serializer.js';
import { firstOrdinalAfter, isUsableEventId, MAX_EVENT_ID_LENGTH } from './event-ids.js';
import { OpenedStream } from './opened-stream.js';
import { HEARTBEAT, type SseFraming } from './sse-framing.js';
import { isStreamEvent } from './stream-event.js';
import type { StreamLimits } from './stream-limits.js';
import type { RegisteredStream, StreamRegistry } from './stream-registry.js';

export interface StreamSessionOptions {
  /** `"<Interface>.<method>"`, for logs. */
  method: string;
  framing: SseFraming;
  serializer: ResultSerializer | undefined;
  limits: StreamLimits;
  registry: StreamRegistry;
  failures: FailureReporter;
  /** The request's usable `Last-Event-ID`: default ids count on from it when it is decimal. */
  lastEventId: string | undefined;
  /** The request as the adapter gave it (its signal aborts when the client goes away). */
  request: RequestContext;
}

/** The longest wait a timer takes (setTimeout's limit); longer limits re-arm. */
const MAX_TIMER_MS = 2_147_483_647;

/** Where a stream is: producing, its final chunk decided but not yet taken, or over. */
type Phase = 'open' | 'ending' | 'ended';

export class StreamSession implements AnswerStream, RegisteredStream {
  /** The request the call runs with: the adapter's, with a signal this session aborts too. */
  readonly request: RequestContext;
  readonly #options: StreamSessionOptions;
  readonly #controller = new AbortController();
  readonly #startedAt = Date.now();
  readonly #firstOrdinal: number;
  #phase: Phase = 'open';
  /** The pipeline's outcome arrived (`open`). */
  #opened = false;
  #stream: OpenedStream | undefined;
  #iterator: AsyncIterator<unknown> | undefined;
  /** The iterator finished by itself (done, or threw): nothing to close. */
  #iteratorDone = false;
  /** The handler is being asked for something (the iterable, then an item): the idle limit runs. */
  #pulling = true;
  #pullStartedAt = this.#startedAt;
  #lastChunkAt = this.#startedAt;
  /** The adapter's `next()` waiting for a chunk. */
  #waiter: ((chunk: string | undefined) => void) | undefined;
  /** An item that arrived after a heartbeat answered the `next()` that asked for it. */
  #ready: string | undefined;
  /** The final chunk, until taken. */
  #last: string | undefined;
  #items = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #endReported = false;
  #closing = false;
  #released = false;
  readonly #onClientGone = () => this.cancel();

  constructor(options: StreamSessionOptions) {
    this.#options = options;
    this.#firstOrdinal = firstOrdinalAfter(options.lastEventId);
    const { request } = options;
    const signal = this.#controller.signal;
    this.request = {
      get headers() {
        return request.headers;
      },
      remoteAddress: request.remoteAddress,
      signal,
    };
    request.signal?.addEventListener('abort', this.#onClientGone, { once: true });
    options.registry.add(this);
    this.#arm();
    if (request.signal?.aborted) this.cancel();
  }

  /** The call pipeline's outcome: an OpenedStream to pull, or the error that ends the stream at once. */
  open(outcome: Outcome): void {
    this.#opened = true;
    this.#pulling = false;
    const result = 'error' in outcome ? undefined : outcome.result;
    if (result instanceof OpenedStream) this.#stream = result;
    if (this.#phase !== 'open') {
      // Cancelled or cut before the handler answered: its iterator is never started.
      this.#reportEnd({ result: null });
      this.#release();
      return;
    }
    if ('error' in outcome) return this.#finish(this.#options.framing.error(outcome.error), outcome);
    const stream = this.#stream!;
    try {
      this.#iterator = stream.run(() => stream.iterable[Symbol.asyncIterator]());
    } catch (error) {
      this.#iteratorDone = true;
      return this.#fail(stream.failure(error));
    }
    if (this.#waiter !== undefined) this.#pull();
  }

  next(): Promise<string | undefined> {
    if (this.#waiter !== undefined) return Promise.reject(new Error('AnswerStream.next() called again before its chunk came'));
    if (this.#ready !== undefined) {
      const chunk = this.#ready;
      this.#ready = undefined;
      return Promise.resolve(chunk);
    }
    if (this.#phase === 'ending') {
      const chunk = this.#last;
      this.#last = undefined;
      this.#phase = 'ended';
      return Promise.resolve(chunk);
    }
    if (this.#phase === 'ended') return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiter = resolve;
      if (this.#opened && !this.#pulling) this.#pull();
    });
  }

  cancel(): void {
    const wasOpen = this.#phase === 'open';
    if (this.#phase === 'ended' && this.#closing) return;
    this.#phase = 'ended';
    this.#ready = undefined;
    this.#last = undefined;
    if (wasOpen) this.#stop(new Error('the client went away'));
    this.#reportEnd({ result: null });
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(undefined);
    this.#close();
  }

  /** Ends the stream with a reconnect message (shutdown, a time limit) and aborts the handler. */
  reconnect(reason: string): void {
    if (this.#phase !== 'open') return;
    const { framing, limits } = this.#options;
    this.#finish(framing.reconnect(limits.retryMs), { result: null }, new Error(reason));
  }

  /** Asks the iterator for its next item; at most one such request is outstanding. */
  #pull(): void {
    const iterator = this.#iterator!;
    this.#pulling = true;
    this.#pullStartedAt = Date.now();
    const stream = this.#stream!;
    let step: unknown;
    try {
      step = stream.scoped ? stream.run(() => iterator.next()) : iterator.next();
    } catch (error) {
      return this.#threw(error);
    }
    Promise.resolve(step).then(this.#onStep, this.#onThrow);
  }

  // Bound once per stream, not per item.
  readonly #onStep = (result: unknown): void => this.#stepped(result as IteratorResult<unknown>);
  readonly #onThrow = (error: unknown): void => this.#threw(error);

  #stepped(result: IteratorResult<unknown>): void {
    this.#pulling = false;
    if (this.#phase !== 'open') return;
    if (typeof result !== 'object' || result === null) {
      return this.#threw(new TypeError(`the iterator's next() gave ${result === null ? 'null' : typeof result}, not an iterator result`));
    }
    if (result.done) {
      this.#iteratorDone = true;
      return this.#finish(this.#options.framing.end(), { result: null });
    }
    this.#item(result.value);
  }

  #threw(error: unknown): void {
    this.#pulling = false;
    this.#iteratorDone = true;
    // After a cancel or a reconnect the handler may well throw (its signal aborted): nobody is told.
    if (this.#phase !== 'open') return;
    this.#fail(this.#stream!.failure(error));
  }

  /** One item: its id, checked and written; or the error that ends the stream. */
  #item(value: unknown): void {
    const { framing, serializer, failures, method } = this.#options;
    const stream = this.#stream!;
    const index = this.#items;
    let item = value;
    let eventId: string;
    if (isStreamEvent(value)) {
      if (!isUsableEventId(value.id)) {
        failures.log(
          `${method} yielded streamEvent(item, id) with an unusable id ${describeId(value.id)}: an event id is a non-empty string of at most ${MAX_EVENT_ID_LENGTH} characters without control characters`,
        );
        return this.#fail(failures.internalError(`${method} (item ${index})`, new Error('unusable event id')));
      }
      item = value.item;
      eventId = value.id;
    } else {
      eventId = String(this.#firstOrdinal + index + 1);
    }
    const checked = stream.checkItem(item);
    if ('error' in checked) return this.#fail(checked);
    let itemJson: string;
    try {
      itemJson = serializeResult(checked.result, serializer);
    } catch (error) {
      return this.#fail(failures.internalError(`Serializing item ${index} of ${method}`, error));
    }
    this.#items = index + 1;
    stream.itemWritten(index, (error) => failures.log('a stream watcher failed on an item', error));
    this.#give(framing.item(eventId, itemJson));
  }

  /** Hands a chunk to the waiting `next()`, or keeps it for the next one. */
  #give(chunk: string): void {
    this.#lastChunkAt = Date.now();
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#ready = chunk;
      return;
    }
    this.#waiter = undefined;
    waiter(chunk);
  }

  #fail(outcome: Outcome): void {
    this.#finish(this.#options.framing.error((outcome as { error: { code: number; message: string } }).error), outcome);
  }

  /**
   * Decides the final chunk (given now to a waiting `next()`, else kept for the next), tells the
   * watchers, aborts the handler when `abortReason` says why, and closes the iterator.
   */
  #finish(chunk: string, outcome: Outcome, abortReason?: Error): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'ending';
    if (abortReason !== undefined) this.#stop(abortReason);
    else this.#clearTimer();
    this.#reportEnd(outcome);
    const waiter = this.#waiter;
    if (waiter !== undefined && this.#ready === undefined) {
      this.#waiter = undefined;
      this.#phase = 'ended';
      waiter(chunk);
    } else {
      this.#last = chunk;
    }
    this.#close();
  }

  /** Aborts the handler's signal and stops the timer. */
  #stop(reason: Error): void {
    this.#clearTimer();
    this.#controller.abort(reason);
  }

  #reportEnd(outcome: Outcome): void {
    if (this.#endReported || this.#stream === undefined) return;
    this.#endReported = true;
    this.#stream.ended(outcome, (error) => this.#options.failures.log('a stream watcher failed at the end', error));
  }

  /** Calls the iterator's `return()` (unless it finished by itself), then releases the stream's slot. */
  #close(): void {
    if (this.#closing) return;
    this.#closing = true;
    // Before the outcome: `open` releases the slot when it comes.
    if (!this.#opened) return;
    const iterator = this.#iterator;
    if (iterator === undefined || this.#iteratorDone || typeof iterator.return !== 'function') return this.#release();
    let returned: unknown;
    try {
      returned = this.#stream!.run(() => iterator.return!());
    } catch (error) {
      this.#closeFailed(error);
      return;
    }
    Promise.resolve(returned).then(
      () => this.#release(),
      (error: unknown) => this.#closeFailed(error),
    );
  }

  #closeFailed(error: unknown): void {
    this.#options.failures.log(`${this.#options.method}: the stream's iterator failed while closing`, error);
    this.#release();
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#clearTimer();
    this.#options.request.signal?.removeEventListener('abort', this.#onClientGone);
    this.#options.registry.delete(this);
  }

  /** Arms the one timer of the stream for its earliest due: a heartbeat, the idle or the total time limit. */
  #arm(): void {
    const { heartbeatMs, idleTimeoutMs, maxDurationMs } = this.#options.limits;
    const due = Math.min(
      this.#lastChunkAt + heartbeatMs,
      this.#startedAt + maxDurationMs,
      this.#pulling ? this.#pullStartedAt + idleTimeoutMs : Number.POSITIVE_INFINITY,
    );
    if (due === Number.POSITIVE_INFINITY) return;
    const delay = Math.min(Math.max(due - Date.now(), 1), MAX_TIMER_MS);
    this.#timer = setTimeout(this.#tick, delay);
    // An open stream alone must not keep a process alive (its connection does, in a server).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    if (this.#phase !== 'open') return;
    const { heartbeatMs, idleTimeoutMs, maxDurationMs } = this.#options.limits;
    const now = Date.now();
    if (now >= this.#startedAt + maxDurationMs) return this.reconnect(`the stream reached streamMaxDurationMs (${maxDurationMs} ms)`);
    if (this.#pulling && now >= this.#pullStartedAt + idleTimeoutMs) {
      return this.reconnect(`the handler gave no item within streamIdleTimeoutMs (${idleTimeoutMs} ms)`);
    }
    if (this.#waiter !== undefined && now >= this.#lastChunkAt + heartbeatMs) this.#give(HEARTBEAT);
    this.#arm();
  };

  #clearTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** An unusable id for a log line: its type, or its start and length. */
function describeId(id: unknown): string {
  if (typeof id !== 'string') return `(${typeof id})`;
  return `${JSON.stringify(id.slice(0, 40))}${id.length > 40 ? '...' : ''} (${id.length} characters)`;
}
