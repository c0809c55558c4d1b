/**
 * How a cycle reads in a message (`extends-cycle`, `field-cycle`): `A -> B -> C -> A`.
 */

/** A cycle longer than this is shown by its first and last names only. */
const MAX_CYCLE_NAMES_SHOWN = 8;

/** `A -> B -> C -> A`, shortened in the middle when the cycle is long. */
export function pathText(names: readonly string[], closing: string): string {
  if (names.length <= MAX_CYCLE_NAMES_SHOWN) return [...names, closing].join(' -> ');
  const hidden = names.length - 7;
  return [...names.slice(0, 4), `... (${hidden} more) ...`, ...names.slice(-3), closing].join(' -> ');
}
