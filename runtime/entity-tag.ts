/**
 * Entity tags of GET answers (docs/protocol.md, "Reads over GET"): a strong `ETag` made from the
 * answer's body, and the `If-None-Match` comparison that turns a repeated GET into a 304. Made from
 * the bytes sent, so two servers (or two restarts) give the same tag for the same answer, and no
 * state is kept per resource.
 */

/** Room for a body's UTF-8 (grown as needed; one per process: tags are made synchronously). */
let bytes = new Uint8Array(1 << 16);
let words = new Int32Array(bytes.buffer);
const utf8 = new TextEncoder();

/**
 * The strong entity tag of a body: `"` + 16 hex digits + `"`, two 32-bit multiplicative hashes (an
 * FNV-1a step and a MurmurHash2 multiplier) over the 32-bit words of the body's UTF-8, its length
 * mixed in. Not a cryptographic hash: the tag only has to change when the answer does, and a
 * client gains nothing by forging a match. Words rather than characters, and two independent
 * lanes: a 16 KB answer costs a few microseconds (docs/benchmarks.md, "Reads over GET").
 */
export function entityTagOf(body: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit; 3 more so the last word can be read whole.
  if (bytes.length < body.length * 3 + 3) {
    bytes = new Uint8Array(body.length * 3 + 3);
    words = new Int32Array(bytes.buffer, 0, bytes.length >> 2);
  }
  const { written } = utf8.encodeInto(body, bytes);
  // The bytes past the end of this body may be an earlier one's: zero the partial word's tail.
  for (let index = written; index < ((written + 3) & ~3); index++) bytes[index] = 0;
  const count = (written + 3) >> 2;
  let first = 0x811c9dc5 ^ written;
  let second = 0x050c5d1f;
  for (let index = 0; index < count; index++) {
    const word = words[index];
    first = Math.imul(first ^ word, 0x01000193);
    second = Math.imul(second ^ word, 0x5bd1e995);
  }
  return `"${hex8(first)}${hex8(second)}"`;
}

function hex8(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/**
 * Whether an `If-None-Match` header value matches `tag` (RFC 9110 §13.1.2): `*`, or a list of
 * entity tags one of which equals it by the weak comparison (a `W/` prefix is ignored). A header
 * that is no list of tags matches nothing, so the answer is sent in full.
 */
export function ifNoneMatchMatches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const item of value.split(',')) {
    const candidate = item.trim();
    if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === opaque) return true;
  }
  return false;
}
