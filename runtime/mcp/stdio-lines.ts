/**
 * The lines of MCP's stdio transport, each at most `maxBytes` long. A line read with `readline`
 * grows without bound while no newline comes; here a line past the limit is dropped as it arrives
 * (its bytes are not kept) and reported once its newline comes, so the server answers it with an
 * error and goes on with the next line.
 */
import type { Readable } from 'node:stream';

/** A line's text (without its `\n` or `\r\n`), or the notice that a line was past the limit. */
export type StdioLine = { readonly text: string } | { readonly tooLong: true };

const NEWLINE = 0x0a;

/** The lines of `input`, the last one also when it has no newline. */
export async function* boundedLines(input: Readable, maxBytes: number): AsyncGenerator<StdioLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      if (!dropping) {
        size += end - start;
        dropping = size > maxBytes;
        if (dropping) parts = [];
        // A copy, so that a kept piece does not hold on to the whole chunk it came in.
        else parts.push(Buffer.from(bytes.subarray(start, end)));
      }
      if (newline === -1) break;
      yield lineOf(parts, dropping);
      parts = [];
      size = 0;
      dropping = false;
      start = newline + 1;
    }
  }
  if (size > 0 || dropping) yield lineOf(parts, dropping);
}

function lineOf(parts: Buffer[], tooLong: boolean): StdioLine {
  if (tooLong) return { tooLong: true };
  const text = Buffer.concat(parts).toString('utf8');
  return { text: text.endsWith('\r') ? text.slice(0, -1) : text };
}
