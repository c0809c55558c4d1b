/**
 * The console's reader of a stream method's answer (`text/event-stream`): its events as they
 * arrive, by the WHATWG rules the client runtime follows (runtime/streams/sse-parser.ts; the page
 * cannot import it, its files are served as they are): lines ended by CRLF, LF or CR (a chunk may
 * end between them), comments, multi-line data, the last `id:` kept across events.
 */

/**
 * Reads `body` to its end, calling `onEvent` for each event. Rejects when the connection fails or
 * is aborted.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(event: { type: string, data: string, id: string }) => void} onEvent
 */
export async function readEvents(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let afterCr = false;
  let data = '';
  let type = '';
  let id = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    let text = decoder.decode(value, { stream: true });
    if (afterCr && text.startsWith('\n')) {
      text = text.slice(1);
      afterCr = false;
    }
    if (text !== '') afterCr = text.endsWith('\r');
    const lines = (pending + text).split(/\r\n|\r|\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data !== '') onEvent({ type: type || 'message', data: data.slice(0, -1), id });
        data = '';
        type = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data += `${value}\n`;
      else if (field === 'event') type = value;
      else if (field === 'id' && !value.includes('\0')) id = value;
    }
  }
}

/**
 * What one event of a stream says, in either binding (docs/protocol.md, "Streams"): an item, the
 * end, an error (its JSON-RPC error object or the REST binding's error body), the server's request
 * to reconnect, or nothing this stream knows.
 * @param {{ type: string, data: string }} event
 * @param {boolean} rest
 * @returns {{ kind: 'item', item: unknown } | { kind: 'end' } | { kind: 'error', error: any } | { kind: 'reconnect' } | { kind: 'other' }}
 */
export function streamMessage(event, rest) {
  const parsed = JSON.parse(event.data);
  if (rest) {
    if (event.type === 'item') return { kind: 'item', item: parsed };
    if (event.type === 'end') return { kind: 'end' };
    if (event.type === 'error') return { kind: 'error', error: parsed };
    if (event.type === 'reconnect') return { kind: 'reconnect' };
    return { kind: 'other' };
  }
  if (parsed?.method === 'rpc.stream.item') return { kind: 'item', item: parsed.params?.item };
  if (parsed?.method === 'rpc.stream.reconnect') return { kind: 'reconnect' };
  if (parsed && typeof parsed === 'object' && 'error' in parsed) return { kind: 'error', error: parsed.error };
  if (parsed && typeof parsed === 'object' && 'result' in parsed) return { kind: 'end' };
  return { kind: 'other' };
}
