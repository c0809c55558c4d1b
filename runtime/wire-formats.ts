/**
 * The wire forms of the built-in types `timestamp`, `date` and `bytes` (docs/idl.md, "Types"): the
 * patterns their strings are checked under and the problem of a string that does not match. The
 * conversions are in wire-values.ts (a client bundle carries those, not these patterns). `json` has
 * no wire form of its own: any JSON value.
 */

/** `YYYY-MM-DD` naming a day that exists (leap years of the proleptic Gregorian calendar). */
const CALENDAR_DATE =
  '(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';

/** A `date`: a real calendar date, `2026-02-28` (`2026-02-30` does not match). */
export const DATE_PATTERN = `^${CALENDAR_DATE}$`;

/**
 * A `timestamp`: an RFC 3339 `date-time` with its offset, `T` and `Z` in either case, any number of
 * fraction digits. A leap second (`:60`) does not match: a `Date` cannot hold one.
 */
export const TIMESTAMP_PATTERN = `^${CALENDAR_DATE}[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$`;

/** `bytes`: RFC 4648 standard base64 with padding (base64url's `-` and `_` do not match). */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

/**
 * The problem of a string that does not match the wire form `pattern` (one of the patterns above), or
 * undefined for any other pattern. A function, not a table: a client bundle that never calls it
 * does not carry the patterns.
 */
export function wireFormProblem(pattern: string): string | undefined {
  if (pattern === TIMESTAMP_PATTERN) return 'expected a timestamp: an RFC 3339 date-time with an offset, such as 2026-01-31T12:00:00Z';
  if (pattern === DATE_PATTERN) return 'expected a date that exists, written YYYY-MM-DD';
  if (pattern === BASE64_PATTERN) return 'expected bytes: standard base64 with padding (RFC 4648, not base64url)';
  return undefined;
}
