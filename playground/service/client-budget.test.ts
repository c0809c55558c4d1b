import { describe, expect, it } from 'vitest';
import { ClientBudget, clientOf, MAX_TRACKED_CLIENTS } from './client-budget.js';

describe('ClientBudget', () => {
  it('gives each client `max` per window, takes back what it gives back, and starts over with the next window', () => {
    const clock = { now: 1000 };
    const budget = new ClientBudget(2, 60, () => clock.now);
    const first = budget.take('a');
    expect(first).toBeDefined();
    expect(budget.take('a')).toBeDefined();
    expect(budget.take('a')).toBeUndefined();
    expect(budget.take('b')).toBeDefined();
    budget.giveBack(first!);
    expect(budget.take('a')).toBeDefined();
    expect(budget.take('a')).toBeUndefined();
    clock.now += 20;
    expect(budget.retryAfterSeconds('a')).toBe(40);
    clock.now += 40;
    expect(budget.take('a')).toBeDefined();
  });

  it('ignores a reservation given back after its window passed', () => {
    const clock = { now: 0 };
    const budget = new ClientBudget(1, 10, () => clock.now);
    const old = budget.take('a')!;
    clock.now = 10;
    expect(budget.take('a')).toBeDefined();
    budget.giveBack(old);
    expect(budget.take('a')).toBeUndefined();
  });

  it(`remembers at most ${MAX_TRACKED_CLIENTS} clients, forgetting the oldest window first`, () => {
    const clock = { now: 0 };
    const budget = new ClientBudget(1, 1_000_000, () => clock.now);
    for (let i = 0; i <= MAX_TRACKED_CLIENTS; i++) {
      clock.now = i;
      expect(budget.take(`client-${i}`)).toBeDefined();
    }
    // client-0, the oldest, was forgotten to make room: it has a fresh budget; client-1 has none left.
    expect(budget.take('client-1')).toBeUndefined();
    expect(budget.take('client-0')).toBeDefined();
  });
});

describe('clientOf', () => {
  it('takes IPv4 addresses as they are and IPv6 addresses by their /64 prefix', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf(undefined)).toBe('unknown');
  });
});
