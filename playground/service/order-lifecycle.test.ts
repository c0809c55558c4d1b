import { describe, expect, it } from 'vitest';
import { defaultFulfilment, fulfilmentFromEnv, isFinal, nextStatus, seenOrdinal, statusEventId } from './order-lifecycle.js';

describe('the order lifecycle', () => {
  it('goes pending -> paid -> shipped -> delivered; delivered and cancelled are final', () => {
    expect([nextStatus('pending'), nextStatus('paid'), nextStatus('shipped'), nextStatus('delivered')]).toEqual([
      'paid',
      'shipped',
      'delivered',
      undefined,
    ]);
    expect(nextStatus('cancelled')).toBeUndefined();
    expect(['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((status) => isFinal(status as 'paid'))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });

  it("gives each status its ordinal as event id, and reads back only ids issued up to the order's status", () => {
    expect(['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((status) => statusEventId(status as 'paid'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(seenOrdinal('2', 'shipped')).toBe(2);
    expect(seenOrdinal('3', 'shipped')).toBe(3);
    // Not issued (yet) for a shipped order, or no id of this service at all: as if none.
    for (const id of [undefined, '4', '0', '02', '2.0', 'x', '', '1000']) expect(seenOrdinal(id, 'shipped')).toBe(0);
  });
});

describe('fulfilmentFromEnv', () => {
  it('gives 5 s steps without the variable, and takes 0 to 10,000 ms', () => {
    expect(fulfilmentFromEnv({})).toEqual(defaultFulfilment);
    expect(defaultFulfilment.stepMs * 3).toBeLessThanOrEqual(30_000);
    expect(fulfilmentFromEnv({ PLAYGROUND_FULFILMENT_STEP_MS: ' 50 ' })).toEqual({ stepMs: 50 });
    expect(fulfilmentFromEnv({ PLAYGROUND_FULFILMENT_STEP_MS: '0' })).toEqual({ stepMs: 0 });
    expect(fulfilmentFromEnv({ PLAYGROUND_FULFILMENT_STEP_MS: '10000' })).toEqual({ stepMs: 10_000 });
  });

  it('refuses anything else, naming the variable', () => {
    for (const text of ['10001', '-1', '1.5', 'fast']) {
      expect(() => fulfilmentFromEnv({ PLAYGROUND_FULFILMENT_STEP_MS: text })).toThrow(
        `PLAYGROUND_FULFILMENT_STEP_MS must be a whole number of milliseconds from 0 to 10000, not "${text}"`,
      );
    }
  });
});
