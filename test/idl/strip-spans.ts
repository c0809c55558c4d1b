/**
 * Test helper: a syntax tree without positions and source text, for comparing trees that were
 * parsed from differently laid out (or printed) text.
 */
export function stripSpans<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) =>
      key === 'span' || key === 'codeSpan' || key === 'source' || key === 'detachedComments' || key === 'fileName' ? undefined : inner,
    ),
  ) as T;
}
