/**
 * The bytes of request bodies one server may hold while they arrive, across all its connections.
 * Without it, many slow uploads each just under `maxBodyBytes` add up to gigabytes (2,000 of
 * 999 KB took a server from 0.4 to 2.3 GB). Adapters take each chunk of a body as it arrives,
 * before keeping it, and give it all back once the body is read or dropped. Bytes that arrived
 * count, not bytes announced: a Content-Length costs nothing to send, and 70 connections announcing
 * 1 MiB each and sending nothing once held the whole default budget, refusing every other call.
 */
export class BodyBudget {
  /** The most bytes that may be taken at once. */
  readonly limit: number;
  #used = 0;

  /** `limit` may be `Infinity` (no budget). */
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Takes `bytes` if that many are free; false (and nothing taken) otherwise. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }

  /** Gives back bytes taken before. */
  give(bytes: number): void {
    this.#used -= bytes;
  }

  /** Bytes taken and not yet given back. */
  get inUse(): number {
    return this.#used;
  }
}
