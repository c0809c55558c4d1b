/**
 * The client's event-stream parser (runtime/streams/sse-parser.ts) against the WHATWG rules, fed
 * the same bytes cut at every place: between CR and LF, inside a field name, inside a multi-byte
 * UTF-8 character.
 */
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_CHARS, SseParser, type SseEvent } from '../../runtime/streams/sse-parser.js';

const encoder = new TextEncoder();

// Every rule at least once: a BOM, the three line ends, comments, a field without a colon, a field
// without a space after its colon, multi-line data, an `event:`, an `id:` kept across events and
// one holding NUL (ignored), `retry:` with and without digits only, an empty `data:`, a block with
// no data (no event), unknown fields, multi-byte characters (2, 3 and 4 bytes), and an unfinished
// event at the end (never dispatched).
const STREAM =
  '\uFEFF: a comment\r\n' +
  'id: 1\r\n' +
  'data: {"café":"naïve"}\r\n\r\n' +
  'data:first\rdata: second\r\r' +
  'data: one\r\ndata: two\r\n\r\n' +
  'event: reconnect\nretry: 1500\ndata\n\n' +
  'id: 2\0x\nretry: 15x\nfoo: bar\ndata: 日本 🚀\n\n' +
  'id\n: only a comment\n\n' +
  'data: \n\n' +
  'id: 3\ndata: cut off';

const EXPECTED: SseEvent[] = [
  { type: 'message', data: '{"café":"naïve"}', lastEventId: '1' },
  { type: 'message', data: 'first\nsecond', lastEventId: '1' },
  { type: 'message', data: 'one\ntwo', lastEventId: '1' },
  { type: 'reconnect', data: '', lastEventId: '1' },
  { type: 'message', data: '日本 🚀', lastEventId: '1' },
  { type: 'message', data: '', lastEventId: '' },
];

function parse(chunks: Uint8Array[], parser = new SseParser()): { events: SseEvent[]; parser: SseParser } {
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return { events, parser };
}

describe('SseParser', () => {
  it('reads a stream given whole by the WHATWG rules', () => {
    const { events, parser } = parse([encoder.encode(STREAM)]);
    expect(events).toStrictEqual(EXPECTED);
    expect(parser.retry).toBe(1500);
    expect(parser.lastEventId).toBe('3');
  });

  it('reads the same events whatever two places the bytes are cut at', () => {
    const bytes = encoder.encode(STREAM);
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second += 3) {
        const { events } = parse([bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)]);
        expect(events, `cut at ${first} and ${second}`).toStrictEqual(EXPECTED);
      }
    }
  });

  it('reads the same events from the stream with LF line ends only (as our servers write it), whole and cut anywhere', () => {
    // The parser reads text without CR on a path of its own (indexOf rather than the regular expression).
    const bytes = encoder.encode(STREAM.replace(/\r\n?/g, '\n'));
    expect(bytes.includes(13)).toBe(false);
    expect(parse([bytes]).events).toStrictEqual(EXPECTED);
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second += 3) {
        const { events } = parse([bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)]);
        expect(events, `cut at ${first} and ${second}`).toStrictEqual(EXPECTED);
      }
    }
  });

  it('reads the same events fed one byte at a time', () => {
    const bytes = encoder.encode(STREAM);
    const { events } = parse([...bytes].map((byte) => Uint8Array.of(byte)));
    expect(events).toStrictEqual(EXPECTED);
  });

  it('takes CR then LF in two chunks as one line end, and CR then CR as two', () => {
    expect(parse([encoder.encode('data: a\r'), encoder.encode('\n'), encoder.encode('data: b\n\n')]).events).toStrictEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
    expect(parse([encoder.encode('data: a\r'), encoder.encode('\r')]).events).toStrictEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  it('drops only one leading BOM, and keeps one elsewhere', () => {
    const { events } = parse([encoder.encode('\uFEFF\uFEFFdata: x\n\ndata: \uFEFFy\n\n')]);
    // The second BOM is part of the first line's field name ("\uFEFFdata"), an unknown field.
    expect(events).toStrictEqual([{ type: 'message', data: '\uFEFFy', lastEventId: '' }]);
  });

  it('starts from the last event id it is given (a resumed stream)', () => {
    const { events } = parse([encoder.encode('data: x\n\n')], new SseParser('7'));
    expect(events).toStrictEqual([{ type: 'message', data: 'x', lastEventId: '7' }]);
  });
});

describe('SseParser limits', () => {
  it('fails with a transport error once a line or an event passes its limit, and reads events up to it', () => {
    const small = () => new SseParser('', 100);
    const line = `data: ${'x'.repeat(94)}`; // 100 characters
    expect(parse([encoder.encode(`${line}\n\n`)], small()).events).toHaveLength(1);
    const endless = small();
    endless.push(encoder.encode(line));
    expect(() => endless.push(encoder.encode('x'))).toThrow('Transport error: a stream event is longer than 100 characters');
    const manyLines = small();
    expect(() => manyLines.push(encoder.encode('data: 123456789\n'.repeat(12)))).toThrow('longer than 100 characters');
    expect(MAX_EVENT_CHARS).toBe(16 * 1024 * 1024);
  });
});
