/**
 * Test helper: a syntax tree without positions and source text, for comparing trees that were
 * parsed from differently laid out (or printed) text.
 */
export function stripSpans<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) => {
      if (key === 'span' || key === 'codeSpan' || key === 'source' || key === 'detachedComments' || key === 'fileName') return undefined;
      // A stream method's `stream` is the span of its keyword: kept as a flag.
      if (key === 'stream' && typeof inner === 'object' && inner !== null) return true;
      return inner;
    }),
  ) as T;
}
