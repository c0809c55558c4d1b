import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue } from './deadline-queue.js';

describe('DeadlineQueue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('expires each call once its time has passed (at most a tenth late), in the order they were added', () => {
    const queue = new DeadlineQueue(100);
    const expired: string[] = [];
    queue.add(() => expired.push('a'));
    vi.advanceTimersByTime(40);
    queue.add(() => expired.push('b'));
    vi.advanceTimersByTime(59);
    expect(expired).toStrictEqual([]);
    // 'a' is 100 ms old at 100 ms: it expires by the tick after, within a tenth of the deadline.
    vi.advanceTimersByTime(11);
    expect(expired).toStrictEqual(['a']);
    vi.advanceTimersByTime(30);
    expect(expired).toStrictEqual(['a']);
    vi.advanceTimersByTime(10);
    expect(expired).toStrictEqual(['a', 'b']);
  });

  it('never expires a call before its time, wherever between two ticks it was added', () => {
    const queue = new DeadlineQueue(100);
    const addedAt = new Map<number, number>();
    const expiredAfter: number[] = [];
    for (let at = 0; at < 50; at += 3) {
      addedAt.set(at, Date.now());
      queue.add(() => expiredAfter.push(Date.now() - addedAt.get(at)!));
      vi.advanceTimersByTime(3);
    }
    vi.advanceTimersByTime(200);
    expect(expiredAfter).toHaveLength(addedAt.size);
    for (const age of expiredAfter) {
      expect(age).toBeGreaterThanOrEqual(100);
      expect(age).toBeLessThanOrEqual(110);
    }
  });

  it('never expires a deleted call, and still expires the ones after it', () => {
    const queue = new DeadlineQueue(50);
    const expired: string[] = [];
    const first = queue.add(() => expired.push('first'));
    vi.advanceTimersByTime(10);
    queue.add(() => expired.push('second'));
    queue.delete(first);
    vi.advanceTimersByTime(100);
    expect(expired).toStrictEqual(['second']);
  });

  it('keeps working after its queue ran empty, and one failing callback does not stop the others', () => {
    const queue = new DeadlineQueue(20);
    const expired: string[] = [];
    queue.delete(queue.add(() => expired.push('never')));
    vi.advanceTimersByTime(100);
    queue.add(() => {
      throw new Error('broken');
    });
    queue.add(() => expired.push('later'));
    vi.advanceTimersByTime(22);
    expect(expired).toStrictEqual(['later']);
  });

  it('expires exactly the calls still pending among thousands deleted out of order (settled ones are compacted away)', () => {
    const queue = new DeadlineQueue(100);
    const expired: number[] = [];
    const deadlines = Array.from({ length: 5000 }, (_, index) => queue.add(() => expired.push(index)));
    // Keep every 997th call pending; delete the rest back to front, then front to back.
    const kept = new Set(deadlines.map((_, index) => index).filter((index) => index % 997 === 0));
    for (let index = deadlines.length - 1; index >= 0; index -= 2) if (!kept.has(index)) queue.delete(deadlines[index]);
    for (let index = 0; index < deadlines.length; index++) if (!kept.has(index)) queue.delete(deadlines[index]);
    vi.advanceTimersByTime(99);
    expect(expired).toStrictEqual([]);
    vi.advanceTimersByTime(11);
    expect(expired).toStrictEqual([...kept]);
    // Deleting after expiry changes nothing, and the queue still works afterwards.
    for (const deadline of deadlines) queue.delete(deadline);
    queue.add(() => expired.push(-1));
    vi.advanceTimersByTime(110);
    expect(expired).toStrictEqual([...kept, -1]);
  });
});
