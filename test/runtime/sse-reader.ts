/**
 * A test client for text/event-stream answers over a real socket (node:http, so that a test can
 * stop reading, or cut the connection, whenever it likes): POSTs a JSON body and hands out the SSE
 * events one by one as they arrive.
 */
import http from 'node:http';

/** One SSE event: its fields, `data` parsed as JSON. */
export interface SseEvent {
  id?: string;
  event?: string;
  retry?: string;
  data?: any;
}

export interface SseReader {
  /** The answer's status and headers, once they arrived. */
  response: Promise<http.IncomingMessage>;
  /** The next event; undefined once the body has ended. Rejects when the connection fails. */
  next(): Promise<SseEvent | undefined>;
  /** Every event left, up to the end of the body. */
  rest(): Promise<SseEvent[]>;
  /** Stops reading from the socket (the server's writes then fill the socket buffers). */
  pause(): void;
  /** Cuts the connection. */
  destroy(): void;
}

/** POSTs `body` to `url` and reads the answer as SSE events. */
export function readSse(url: string, body: unknown, headers: Record<string, string> = {}, agent?: http.Agent): SseReader {
  const waiting: ((event: SseEvent | undefined | Error) => void)[] = [];
  const ready: (SseEvent | undefined | Error)[] = [];
  const deliver = (value: SseEvent | undefined | Error) => {
    const taker = waiting.shift();
    if (taker) taker(value);
    else ready.push(value);
  };
  let buffer = '';
  let finished = false;
  const finish = (value: undefined | Error) => {
    if (finished) return;
    finished = true;
    deliver(value);
  };
  const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        buffer += text;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const event = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event) deliver(event);
        }
      });
      res.once('end', () => finish(undefined));
      res.once('error', (error) => finish(error));
      res.once('aborted', () => finish(new Error('the answer was cut')));
      resolve(res);
    });
    request.once('error', (error) => {
      reject(error);
      finish(error);
    });
  });
  response.catch(() => undefined);
  request.end(JSON.stringify(body));
  const next = () =>
    new Promise<SseEvent | undefined>((resolve, reject) => {
      const take = (value: SseEvent | undefined | Error) => (value instanceof Error ? reject(value) : resolve(value));
      if (ready.length > 0) take(ready.shift());
      else waiting.push(take);
    });
  let ended = false;
  return {
    response,
    next: async () => {
      if (ended) return undefined;
      const event = await next();
      if (event === undefined) ended = true;
      return event;
    },
    async rest() {
      const events: SseEvent[] = [];
      for (let event = await this.next(); event !== undefined; event = await this.next()) events.push(event);
      return events;
    },
    pause: () => void response.then((res) => res.pause()),
    destroy: () => request.destroy(),
  };
}

/** An event block's fields; undefined for a comment-only block (a heartbeat). */
function parseEvent(block: string): SseEvent | undefined {
  const event: SseEvent = {};
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'id' || field === 'event' || field === 'retry') event[field] = value;
  }
  if (data === undefined && Object.keys(event).length === 0) return undefined;
  if (data !== undefined) event.data = JSON.parse(data);
  return event;
}
