/**
 * The result table: one row per comparison, "ours" against a peer (or a goal), with their ratio.
 *
 * A row is `{ group, metric, unit, ours, peerName, peer, higherIsBetter, note }`; `peer` is null for
 * figures that have no peer. The ratio is always ours / peer, so read it with `higherIsBetter`.
 * Optional `oursSpread` and `peerSpread` (`[low, high]`, e.g. the interquartile range over rounds)
 * are printed after their figure.
 */

/** Formats a number with a precision that suits its size. */
export function formatNumber(value) {
  if (value === null || value === undefined) return '-';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  // Counts (modules, bytes) print as whole numbers; 999.7 rounds to 1,000, so it gets the comma too.
  if (Number.isInteger(value) || abs >= 999.5) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/** A figure with its spread, when it has one: `12.3 (11.9-12.8)`. */
function formatFigure(value, spread) {
  return spread ? `${formatNumber(value)} (${formatNumber(spread[0])}-${formatNumber(spread[1])})` : formatNumber(value);
}

/** ours / peer, or null when there is no peer figure. */
export function ratioOf(row) {
  return row.peer === null || row.peer === undefined ? null : row.ours / row.peer;
}

/** Whether the row's comparison favours us (null when there is no peer). */
export function weAreAhead(row) {
  const ratio = ratioOf(row);
  if (ratio === null) return null;
  return row.higherIsBetter ? ratio >= 1 : ratio <= 1;
}

/** The table as GitHub-flavoured Markdown (also readable in a terminal). */
export function markdownTable(rows) {
  const header = ['metric', 'ours', 'peer', 'ratio (ours/peer)'];
  const lines = [`| ${header.join(' | ')} |`, `| ${['---', '---:', '---', '---:'].join(' | ')} |`];
  for (const row of rows) {
    const ratio = ratioOf(row);
    const better = row.higherIsBetter ? 'higher is better' : 'lower is better';
    const metric = `${row.metric} (${row.unit}${row.peer === null ? '' : `, ${better}`})`;
    const peer = row.peer === null ? (row.note ?? '-') : `${row.peerName} ${formatFigure(row.peer, row.peerSpread)}`;
    lines.push(`| ${metric} | ${formatFigure(row.ours, row.oursSpread)} | ${peer} | ${ratio === null ? '-' : ratio.toFixed(2)} |`);
  }
  return lines.join('\n');
}
