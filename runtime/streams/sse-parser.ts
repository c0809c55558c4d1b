/**
 * The client's reader of `text/event-stream` bodies, by the WHATWG HTML standard's rules
 * ("Interpreting an event stream"): UTF-8 (one leading BOM dropped), lines ended by CRLF, LF or
 * CR, comments, `event`, `data` (several lines joined by LF), `id` (kept across events, ignored
 * when it holds NUL) and `retry` (digits only). Fed with the body's chunks as they arrive: a chunk
 * may end anywhere, inside a line, between CR and LF or inside a multi-byte character.
 */

import { transportError } from '../transport-error.js';

/**
 * The longest event the client reads, in characters (its `data` lines, and any one line): 16 Mi, far
 * above any item a stream sends, so a server that never ends a line or an event fails the stream
 * instead of filling the client's memory. Written as a literal: esbuild keeps `16 * 1024 * 1024` in
 * every bundle of the client, streams or not.
 */
export const MAX_EVENT_CHARS = 16_777_216;

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, or `message` when the event named none. */
  type: string;
  /** The `data:` lines, joined by LF. */
  data: string;
  /** The last event id when the event was dispatched (the standard keeps it across events). */
  lastEventId: string;
}

// A line ends at CRLF, LF or CR.
const LINE_END = /\r\n|\n|\r/g;

export class SseParser {
  // Decodes UTF-8 across chunk boundaries; drops a leading BOM; bad bytes become U+FFFD.
  private readonly decoder = new TextDecoder();
  /** The text of a line whose end has not arrived yet. */
  private pending = '';
  /** The previous chunk ended with CR: an LF at the start of the next one ends no other line. */
  private afterCr = false;
  /** The event's `data:` lines joined by LF (the standard's buffer without its last LF), when `hasData`. */
  private data = '';
  private hasData = false;
  private type = '';
  /** The reconnection time the stream last asked for with `retry:`, in milliseconds. */
  retry: number | undefined;

  /**
   * `lastEventId`: where the last event id starts (a resumed stream goes on from the one it had).
   * `maxEventChars`: past it `push` throws a -32000 transport error.
   */
  constructor(
    public lastEventId = '',
    private readonly maxEventChars = MAX_EVENT_CHARS,
  ) {}

  /** Reads the next chunk of the body; returns the events it completed, in order. */
  push(chunk: Uint8Array): SseEvent[] {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) {
      text = text.slice(1);
      this.afterCr = false;
    }
    if (text !== '') this.afterCr = text.endsWith('\r');
    const events: SseEvent[] = [];
    // Only the new text is searched for line ends (the pending text has none), so a long line
    // arriving in many chunks costs linear time.
    let start = 0;
    if (!text.includes('\r')) {
      // LF only, as every server of this package writes: indexOf costs a fraction of the regular
      // expression, which took about 7% of the client's time per item (docs/benchmarks.md, "Streams").
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        this.line(this.pending + text.slice(start, end), events);
        this.pending = '';
        start = end + 1;
      }
    } else {
      LINE_END.lastIndex = 0;
      for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
        // A CR that ends the text may be the first half of a CRLF: it ends the line either way.
        this.line(this.pending + text.slice(start, match.index), events);
        this.pending = '';
        start = match.index + match[0].length;
      }
    }
    this.pending += text.slice(start);
    if (this.pending.length + this.data.length > this.maxEventChars) {
      throw transportError(`a stream event is longer than ${this.maxEventChars} characters`);
    }
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') return this.addData(value);
    if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retry = Number(value);
  }

  /**
   * Joins a `data:` line to the event's data here, rather than appending LF and cutting the last one
   * off at dispatch: one copy of the (usually single) line fewer.
   */
  private addData(value: string): void {
    this.data = this.hasData ? `${this.data}\n${value}` : value;
    this.hasData = true;
  }

  private dispatch(events: SseEvent[]): void {
    if (this.hasData) events.push({ type: this.type || 'message', data: this.data, lastEventId: this.lastEventId });
    this.data = '';
    this.hasData = false;
    this.type = '';
  }
}
