/**
 * A table row from paired measurements: round i of `ours` and round i of `peer` were taken back to
 * back, so their ratio is the steadiest figure (a slow spell of the machine falls on both).
 */
import { median, quantile } from './stats.mjs';

/**
 * The row (medians, with the interquartile range over rounds as the spread) and, for the suite's
 * `info`, the median and interquartile range of the per-round ratio ours / peer.
 */
export function pairedRow({ group, metric, unit, peerName, ours, peer, higherIsBetter = false }) {
  if (ours.length === 0 || ours.length !== peer.length)
    throw new Error(`${metric}: ${ours.length} figures of ours, ${peer.length} of the peer`);
  const ratios = ours.map((value, i) => value / peer[i]);
  const row = {
    group,
    metric,
    unit,
    ours: median(ours),
    oursSpread: [quantile(ours, 0.25), quantile(ours, 0.75)],
    peerName,
    peer: median(peer),
    peerSpread: [quantile(peer, 0.25), quantile(peer, 0.75)],
    higherIsBetter,
  };
  const perRoundRatio = { median: median(ratios), iqr: [quantile(ratios, 0.25), quantile(ratios, 0.75)], rounds: ratios.length };
  return { row, perRoundRatio };
}
