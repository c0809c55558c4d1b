/**
 * Shrinking: a failing request made as small as it can be while it still fails the same way, so the
 * report's `curl` shows what matters. Greedy, like property-based testers: try smaller candidates
 * in order, keep the first that still fails, start again from it, until none does or the budget
 * of requests is spent.
 */

/** Most requests one violation's shrinking may send. */
export const SHRINK_BUDGET = 60;

/** Candidates smaller than `value`, the smallest first. */
export function smallerValues(value: unknown): unknown[] {
  if (typeof value === 'string') {
    const chars = [...value];
    if (chars.length === 0) return [];
    const candidates = ['', chars.slice(0, Math.floor(chars.length / 2)).join(''), chars.slice(0, -1).join('')];
    if (/[^a-z0-9]/.test(value)) candidates.push(chars.map((c) => (/[a-z0-9]/.test(c) ? c : 'a')).join(''));
    return unique(candidates, value);
  }
  if (typeof value === 'number') {
    if (value === 0) return [];
    const candidates = [0, Math.trunc(value), Math.trunc(value / 2), value < 0 ? -value : undefined].filter((n) => n !== undefined);
    return unique(candidates, value);
  }
  if (value === true) return [false];
  if (Array.isArray(value)) return smallerArrays(value);
  if (value !== null && typeof value === 'object') return smallerObjects(value as Record<string, unknown>);
  return [];
}

function smallerArrays(items: unknown[]): unknown[] {
  const candidates: unknown[] = [];
  if (items.length > 0) candidates.push([]);
  if (items.length > 1) candidates.push(items.slice(0, Math.floor(items.length / 2)));
  for (let i = items.length - 1; i >= 0; i--) candidates.push(items.filter((_, j) => j !== i));
  items.forEach((item, i) => {
    for (const smaller of smallerValues(item)) candidates.push(items.map((other, j) => (j === i ? smaller : other)));
  });
  return candidates;
}

function smallerObjects(object: Record<string, unknown>): unknown[] {
  const candidates: unknown[] = [];
  for (const key of Object.keys(object)) {
    const { [key]: _dropped, ...rest } = object;
    candidates.push(rest);
  }
  for (const [key, item] of Object.entries(object)) {
    for (const smaller of smallerValues(item)) candidates.push({ ...object, [key]: smaller });
  }
  return candidates;
}

function unique(candidates: unknown[], original: unknown): unknown[] {
  return [...new Set(candidates)].filter((c) => c !== original);
}

/**
 * Shrinks `args` (positional arguments) while `stillFails` holds; `stillFails` is asked at most
 * `budget` times and only about candidates `keeps` allows (same validity as the original).
 */
export async function shrink(
  args: unknown[],
  keeps: (candidate: unknown[]) => boolean,
  stillFails: (candidate: unknown[]) => Promise<boolean>,
  budget = SHRINK_BUDGET,
): Promise<{ args: unknown[]; steps: number }> {
  let current = args;
  let asked = 0;
  let steps = 0;
  let improved = true;
  while (improved && asked < budget) {
    improved = false;
    for (const candidate of smallerValues(current) as unknown[][]) {
      if (!keeps(candidate)) continue;
      if (asked++ >= budget) break;
      if (await stillFails(candidate)) {
        current = candidate;
        steps++;
        improved = true;
        break;
      }
    }
  }
  return { args: current, steps };
}
