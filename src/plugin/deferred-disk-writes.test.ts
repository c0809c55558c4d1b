import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeferredDiskWrites } from './deferred-disk-writes.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('deferred disk writes', () => {
  it('writes a slot once it has held still, only the newest of a run of writes', async () => {
    const writes = new DeferredDiskWrites(1000);
    const written: string[] = [];
    const write = (what: string) => async () => void written.push(what);
    writes.schedule('a.idl', write('a1'));
    await vi.advanceTimersByTimeAsync(600);
    writes.schedule('a.idl', write('a2'));
    writes.schedule('b.idl', write('b1'));
    await vi.advanceTimersByTimeAsync(600);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(written).toEqual(['a2', 'b1']);
    expect(writes.size).toBe(0);
  });

  it('flush runs what waits at once and waits for writes already running', async () => {
    const writes = new DeferredDiskWrites(1000);
    const written: string[] = [];
    let finishSlow!: () => void;
    writes.schedule('slow.idl', () => new Promise<void>((resolve) => (finishSlow = () => resolve(void written.push('slow')))));
    await vi.advanceTimersByTimeAsync(1000); // the slow write is now running
    writes.schedule('a.idl', async () => void written.push('a'));
    let flushed = false;
    const flush = writes.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual(['a']);
    expect(flushed).toBe(false);
    finishSlow();
    await flush;
    expect(written).toEqual(['a', 'slow']);
  });

  it("a slot's write starts only once its previous write has finished, so the newest is left on disk", async () => {
    const writes = new DeferredDiskWrites(0);
    const events: string[] = [];
    let finishFirst!: () => void;
    writes.schedule('a.idl', () => {
      events.push('first started');
      return new Promise<void>((resolve) => (finishFirst = () => resolve(void events.push('first done'))));
    });
    await vi.advanceTimersByTimeAsync(0);
    writes.schedule('a.idl', async () => void events.push('second'));
    writes.schedule('b.idl', async () => void events.push('other slot'));
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['first started', 'other slot']);
    finishFirst();
    await writes.flush();
    expect(events).toEqual(['first started', 'other slot', 'first done', 'second']);
  });

  it('a failed write is only a missing cache entry', async () => {
    const writes = new DeferredDiskWrites(10);
    writes.schedule('a.idl', () => Promise.reject(new Error('disk full')));
    await expect(writes.flush()).resolves.toBeUndefined();
  });
});
