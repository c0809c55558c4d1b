/**
 * The values handlers and callers see for `timestamp` and `bytes` (`Date`, `Uint8Array`), from and to
 * their wire strings (a `Date` is written with `toISOString()`) (docs/idl.md, "Types"). Only strings the validators accepted reach `...FromWire`
 * on a server (wire-formats.ts has the patterns).
 */

/**
 * The `Date` of a timestamp that matched `TIMESTAMP_PATTERN`, read in the one form every engine's
 * `Date` parses (ECMA-262's date-time string format): upper case, three fraction digits (digits past
 * the millisecond are dropped: a `Date` counts milliseconds).
 */
export function timestampFromWire(text: string): Date {
  return new Date(text.toUpperCase().replace(/\.(\d+)/, (_, digits: string) => `.${`${digits}00`.slice(0, 3)}`));
}

/** The bytes of a base64 text that matched `BASE64_PATTERN`. */
export function bytesFromWire(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Standard base64 with padding of `value` (one character per byte: no argument list as long as the bytes). */
export function bytesToWire(value: Uint8Array): string {
  return btoa(Array.from(value, (byte) => String.fromCharCode(byte)).join(''));
}
