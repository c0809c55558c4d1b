/**
 * Entity tags of GET answers (docs/protocol.md, "Reads over GET"): a strong `ETag` made from the
 * answer's body, and the `If-None-Match` comparison that turns a repeated GET into a 304. Made from
 * the bytes sent, so two servers (or two restarts) give the same tag for the same answer, and no
 * state is kept per resource.
 */

/**
 * The strong entity tag of a body: `"` + 16 hex digits + `"`, two 32-bit FNV-1a hashes (of each
 * UTF-16 code unit, with two offset bases) of the text. Not a cryptographic hash: the tag only has
 * to change when the answer does, and a client cannot gain anything by forging a match.
 */
export function entityTagOf(body: string): string {
  let first = 0x811c9dc5;
  let second = 0x050c5d1f;
  for (let index = 0; index < body.length; index++) {
    const unit = body.charCodeAt(index);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x01000193);
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
