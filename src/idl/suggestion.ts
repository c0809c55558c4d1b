/**
 * "did you mean 'X'?": the declared name closest to a mistyped one, with bounded work.
 *
 * A name is compared only with candidates whose length is within the edit threshold (a candidate
 * further off can never be close enough), with an edit distance that gives up as soon as a row of
 * its table exceeds the best distance found so far, and only for names of at most
 * {@link MAX_SUGGESTED_NAME_LENGTH} characters. Every comparison is charged to a budget of
 * {@link SUGGESTION_BUDGET} table cells per checked file; once it is spent, later names get no
 * suggestion. So thousands of mistyped names among thousands of types, or one huge name, cost at
 * most a fixed amount of time and memory.
 */

/** Longer names get no suggestion: nobody mistypes them, and comparing them is costly. */
export const MAX_SUGGESTED_NAME_LENGTH = 64;

/** Edit-distance table cells one checked file may spend on suggestions (about 0.1 s). */
export const SUGGESTION_BUDGET = 20_000_000;

/** Candidate names grouped by length, lower-cased once. */
export interface SuggestionCandidates {
  byLength: Map<number, { name: string; lower: string; rank: number }[]>;
}

/** Indexes `names` (in order of preference: on a tie the earlier one is suggested). */
export function suggestionCandidates(names: Iterable<string>): SuggestionCandidates {
  const byLength: SuggestionCandidates['byLength'] = new Map();
  let rank = 0;
  for (const name of names) {
    let bucket = byLength.get(name.length);
    if (!bucket) byLength.set(name.length, (bucket = []));
    bucket.push({ name, lower: name.toLowerCase(), rank: rank++ });
  }
  return { byLength };
}

/**
 * Makes a suggester with its own budget (one per checked file). It returns the candidate closest to
 * `name` when at most a third of the name (at least one letter) must change, ignoring case; else,
 * or once the budget is spent, undefined.
 */
export function createSuggester(budget = SUGGESTION_BUDGET): (name: string, candidates: SuggestionCandidates) => string | undefined {
  let left = budget;
  const rowLength = MAX_SUGGESTED_NAME_LENGTH + Math.floor(MAX_SUGGESTED_NAME_LENGTH / 3) + 1;
  const rows = [new Int32Array(rowLength), new Int32Array(rowLength), new Int32Array(rowLength)];

  /** Optimal string alignment distance of `a` and `b` when at most `bound`, else `bound + 1`. */
  const boundedDistance = (a: string, b: string, bound: number): number => {
    // Lower-casing can lengthen a non-ASCII name past the rows (only names built by code have those).
    if (b.length >= rowLength) return bound + 1;
    let [before, previous, current] = rows;
    const n = b.length;
    for (let j = 0; j <= n; j++) previous[j] = j;
    let previousMin = 0;
    for (let i = 1; i <= a.length; i++) {
      current[0] = i;
      let rowMin = i;
      for (let j = 1; j <= n; j++) {
        const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
        // A swap of two neighbouring letters counts as one edit.
        if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
          d = Math.min(d, before[j - 2] + 1);
        }
        current[j] = d;
        if (d < rowMin) rowMin = d;
      }
      left -= n + 1;
      // Later rows never go below this row's minimum, nor below the one before it plus a swap.
      if (Math.min(rowMin, previousMin + 1) > bound) return bound + 1;
      previousMin = rowMin;
      [before, previous, current] = [previous, current, before];
    }
    return Math.min(previous[n], bound + 1);
  };

  return (name, candidates) => {
    if (name.length > MAX_SUGGESTED_NAME_LENGTH || left <= 0) return undefined;
    const lower = name.toLowerCase();
    const threshold = Math.max(1, Math.floor(name.length / 3));
    let best: { name: string; rank: number; distance: number } | undefined;
    for (let length = Math.max(0, name.length - threshold); length <= name.length + threshold; length++) {
      for (const candidate of candidates.byLength.get(length) ?? []) {
        if (left <= 0) return undefined;
        left--;
        const bound = best ? best.distance : threshold;
        const distance = boundedDistance(lower, candidate.lower, bound);
        if (distance > bound) continue;
        if (!best || distance < best.distance || candidate.rank < best.rank) {
          best = { name: candidate.name, rank: candidate.rank, distance };
        }
      }
    }
    return best?.name;
  };
}
