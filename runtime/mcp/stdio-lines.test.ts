import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedLines, type StdioLine } from './stdio-lines.js';

/** The lines of `chunks` (strings or bytes, as they would arrive) with at most `maxBytes` a line. */
async function linesOf(chunks: (string | Buffer)[], maxBytes = 16): Promise<StdioLine[]> {
  const lines: StdioLine[] = [];
  for await (const line of boundedLines(Readable.from(chunks), maxBytes)) lines.push(line);
  return lines;
}

describe('boundedLines', () => {
  it('splits lines across and within chunks, drops \\r of \\r\\n, and keeps a last line without newline', async () => {
    expect(await linesOf(['{"a":', '1}\n{"b":2}\r\n\n', '{"c"', ':3}'])).toStrictEqual([
      { text: '{"a":1}' },
      { text: '{"b":2}' },
      { text: '' },
      { text: '{"c":3}' },
    ]);
  });

  it('decodes a UTF-8 character split between two chunks', async () => {
    const bytes = Buffer.from('"é€"\n');
    expect(await linesOf([bytes.subarray(0, 2), bytes.subarray(2, 5), bytes.subarray(5)])).toStrictEqual([{ text: '"é€"' }]);
  });

  it('reports a line past the limit once and goes on with the next one', async () => {
    const long = 'x'.repeat(10);
    expect(await linesOf([long, long, long, '\nok\n', 'y'.repeat(17)])).toStrictEqual([
      { tooLong: true },
      { text: 'ok' },
      { tooLong: true },
    ]);
  });

  it('takes a line of exactly the limit', async () => {
    expect(await linesOf(['x'.repeat(16), '\n'])).toStrictEqual([{ text: 'x'.repeat(16) }]);
  });
});
