/**
 * The compile cache's disk writes in the Vite dev server, put off until the edited module has been
 * served and the file has held still for a while.
 *
 * Written at once, the entry of a 10,000-line IDL (its module and source maps, about 10 MB of JSON)
 * cost every edit about 40 ms and 10 MB of garbage before the module was served. Put off, the
 * edit is served first, and of a run of edits of one file only the last is written: what the next
 * start of the server can use is the file as it is, not each state it passed through. Builds do not
 * use this: their process ends with the build, and an entry must be on disk by then.
 */

/** Writes waiting for their file to hold still, one per slot (a module's file): a newer one replaces an older. */
export class DeferredDiskWrites {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; write: () => Promise<void> }>();
  private readonly running = new Set<Promise<void>>();

  /** `quietMs`: how long a slot must see no newer write before its write runs. */
  constructor(private readonly quietMs: number) {}

  /** Runs `write` once `slot` has had no newer write for `quietMs`; a pending write of the slot is dropped. */
  schedule(slot: string, write: () => Promise<void>): void {
    const replaced = this.pending.get(slot);
    if (replaced) clearTimeout(replaced.timer);
    const timer = setTimeout(() => this.run(slot), this.quietMs);
    // A dev server that is closing does not wait for a cache entry (`flush` is how to wait).
    timer.unref();
    this.pending.set(slot, { timer, write });
  }

  /** The number of writes waiting (tests). */
  get size(): number {
    return this.pending.size;
  }

  /** Runs every pending write now and waits for all writes, pending or running, to finish. */
  async flush(): Promise<void> {
    for (const slot of [...this.pending.keys()]) this.run(slot);
    await Promise.all(this.running);
  }

  private run(slot: string): void {
    const entry = this.pending.get(slot);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(slot);
    // A write that fails only means no cache entry (writeDiskEntry ignores its own errors).
    const running = entry.write().catch(() => undefined);
    this.running.add(running);
    void running.finally(() => this.running.delete(running));
  }
}
