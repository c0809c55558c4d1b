import { describe, expect, it } from 'vitest';
import { type Clock, RequestPacer } from './request-pacing.js';

/** A clock that only moves when something sleeps on it. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 1000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('RequestPacer (-rate)', () => {
  it('spaces requests 1000 / rate ms apart: 50 per second is one every 20 ms, the first at once', async () => {
    const clock = fakeClock();
    const pacer = new RequestPacer(50, clock);
    for (let i = 0; i < 4; i++) await pacer.wait();
    expect(clock.sleeps).toEqual([20, 20, 20]);
    expect(clock.now()).toBe(1060);
  });

  it('does not wait when the requests themselves took longer than the interval', async () => {
    const clock = fakeClock();
    const pacer = new RequestPacer(10, clock);
    await pacer.wait();
    await clock.sleep(500);
    clock.sleeps.length = 0;
    await pacer.wait();
    expect(clock.sleeps).toEqual([]);
  });
});
