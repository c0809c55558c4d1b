/**
 * The streams open on one server: their number against `maxStreams`, and `closeStreams` (shutdown)
 * cutting every one of them with a reconnect message. A stream counts from its start until its
 * handler has finished (its `finally` ran), so the count is what the server really holds.
 */

/** What the registry needs of an open stream. */
export interface RegisteredStream {
  /** Ends the stream with a reconnect message and aborts its handler. */
  reconnect(reason: string): void;
}

export class StreamRegistry {
  readonly #open = new Set<RegisteredStream>();
  #closing = false;
  /** Resolved when the last open stream ends, while `closeStreams` waits. */
  #drained: (() => void) | undefined;
  #drainedPromise: Promise<void> | undefined;

  constructor(readonly maxStreams: number) {}

  get size(): number {
    return this.#open.size;
  }

  /** Why a new stream cannot start now (`maxStreams` reached, or shutting down), else undefined. */
  refusal(): string | undefined {
    if (this.#closing) return 'the server is shutting down';
    if (this.#open.size >= this.maxStreams) return `${this.#open.size} streams are open, the most this server takes (maxStreams)`;
    return undefined;
  }

  add(stream: RegisteredStream): void {
    this.#open.add(stream);
  }

  /** The stream has ended and its handler finished. */
  delete(stream: RegisteredStream): void {
    if (!this.#open.delete(stream)) return;
    if (this.#open.size === 0 && this.#drained !== undefined) {
      this.#drained();
      this.#drained = undefined;
      this.#drainedPromise = undefined;
    }
  }

  /**
   * Refuses new streams from now on, ends every open one with a reconnect message, and resolves
   * when all have ended (their handlers' `finally` ran).
   */
  close(): Promise<void> {
    this.#closing = true;
    if (this.#open.size === 0) return Promise.resolve();
    this.#drainedPromise ??= new Promise((resolve) => {
      this.#drained = resolve;
    });
    const drained = this.#drainedPromise;
    for (const stream of [...this.#open]) stream.reconnect('the server is shutting down');
    return drained;
  }
}
