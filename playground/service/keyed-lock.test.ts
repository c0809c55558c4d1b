import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

/** Lets every pending timer and promise callback run once. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedLock', () => {
  it('runs work under one key one at a time, in arrival order', async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    let counter = 0;
    const increment = (name: string) =>
      lock.run('cart', async () => {
        events.push(`start ${name}`);
        const seen = counter;
        await tick(); // a read-modify-write spread over an await: loses updates without the lock
        counter = seen + 1;
        events.push(`end ${name}`);
      });

    await Promise.all(['a', 'b', 'c'].map(increment));

    expect(counter).toBe(3);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs work under different keys concurrently', async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const work = (key: string) =>
      lock.run(key, async () => {
        events.push(`start ${key}`);
        await tick();
        events.push(`end ${key}`);
      });

    await Promise.all([work('one'), work('two')]);

    expect(events.slice(0, 2).sort()).toEqual(['start one', 'start two']);
  });

  it('passes results and errors through and keeps going after a failure', async () => {
    const lock = new KeyedLock();
    const failing = lock.run('cart', async () => {
      throw new Error('boom');
    });
    const next = lock.run('cart', async () => 42);

    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
    expect(lock.activeKeys).toBe(0);
  });
});
