import { expect, test } from 'vitest';
import { entityTagOf, ifNoneMatchMatches } from './entity-tag.js';

test('a tag depends on the body only: not on the bodies tagged before it (the shared buffer)', () => {
  const fresh = entityTagOf('{"a":1}');
  entityTagOf('x'.repeat(200_000));
  expect(entityTagOf('{"a":1}')).toBe(fresh);
  expect(entityTagOf('{"a":1}')).toMatch(/^"[0-9a-f]{16}"$/);
});

test('bodies that differ anywhere, in length only, or beyond ASCII get different tags', () => {
  const tags = new Set(
    ['', 'a', 'a\u0000', 'ab', 'ba', '{"a":1}', '{"a":2}', 'é', 'e\u0301', '😀', 'x'.repeat(4097), 'x'.repeat(4096)].map(entityTagOf),
  );
  expect(tags.size).toBe(12);
});

test('If-None-Match: a list, weak tags and * match; anything else does not', () => {
  expect(ifNoneMatchMatches('"a", W/"b"', '"b"')).toBe(true);
  expect(ifNoneMatchMatches(' * ', '"b"')).toBe(true);
  expect(ifNoneMatchMatches('"bb"', '"b"')).toBe(false);
  expect(ifNoneMatchMatches('b', '"b"')).toBe(false);
  expect(ifNoneMatchMatches(undefined, '"b"')).toBe(false);
});
