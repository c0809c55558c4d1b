/** Small statistics and timing helpers shared by the benchmark suites. */

/** Median of a non-empty list of numbers. */
export function median(values) {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The q-quantile (0..1) of a non-empty list of numbers, nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('quantile of an empty list');
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Operations per second of `fn`, measured by calling it in batches until `budgetMs` has passed.
 * The batch size grows so the clock is read rarely compared with the work being measured.
 */
export function opsPerSecond(fn, budgetMs) {
  let batch = 16;
  let calls = 0;
  const start = process.hrtime.bigint();
  const budgetNs = BigInt(Math.round(budgetMs * 1e6));
  let elapsed = 0n;
  let sink = 0;
  while (elapsed < budgetNs) {
    for (let i = 0; i < batch; i++) if (fn()) sink++;
    calls += batch;
    elapsed = process.hrtime.bigint() - start;
    if (elapsed < budgetNs / 8n) batch *= 2;
  }
  // `sink` keeps the results observable so the calls cannot be optimised away.
  if (sink < 0) console.log(sink);
  return calls / (Number(elapsed) / 1e9);
}

/** Wall-clock milliseconds of one call of `fn` (awaited when it returns a promise). */
export async function timeMs(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
