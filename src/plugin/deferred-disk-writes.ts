/**
 * The Vite dev server's disk writes that need not hold up serving a module: put off until the
 * module has been handed to Vite (and, for the compile cache, until the file has held still).
 *
 * Written at once, the compile cache entry of a 10,000-line IDL (its module and source maps, about
 * 10 MB of JSON) cost every edit about 40 ms and 10 MB of garbage before the module was served, and
 * the `.idl.d.ts` and its map another 5-15 ms of file operations for any IDL. Put off, the edit is
 * served first, and of a run of edits of one file only the last is written: what the next start of
 * the server (or the editor) needs is the file as it is, not each state it passed through. A slot's
 * writes never overlap, so the newest is the one left on disk. Builds do not use this: their
 * process ends with the build, and what they write must be on disk by then.
 */

/** Writes waiting for their file to hold still, one per slot (a module's file): a newer one replaces an older. */
export class DeferredDiskWrites {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; write: () => Promise<void> }>();
  private readonly running = new Set<Promise<void>>();
  /** The write of each slot that runs now (or waits for the slot's previous one). */
  private readonly runningBySlot = new Map<string, Promise<void>>();

  /** `quietMs`: how long a slot must see no newer write before its write runs (0: once the current work is done). */
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
    // After the slot's previous write, so that the newest content is the one left on disk. A write
    // that fails is its own to report (a missing cache entry is not worth a word).
    const previous = this.runningBySlot.get(slot);
    const running = (previous ? previous.then(entry.write) : entry.write()).catch(() => undefined);
    this.running.add(running);
    this.runningBySlot.set(slot, running);
    void running.finally(() => {
      this.running.delete(running);
      if (this.runningBySlot.get(slot) === running) this.runningBySlot.delete(slot);
    });
  }
}
