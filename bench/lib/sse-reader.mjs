/**
 * A generic fetch + server-sent events reader, what a hand-written client of an SSE endpoint does:
 * the streams suite reads the bare server with it.
 */

/** One parsed event: its `event`, `id` and `data` fields (data lines joined by newlines). */
function parseEvent(block) {
  let data;
  let id;
  let event;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'id') id = value;
    else if (field === 'event') event = value;
  }
  return data === undefined ? undefined : { event, id, data };
}

/**
 * The events of a `text/event-stream` response body, as they arrive (comments and empty events
 * skipped). Lines must end with LF, as every server of the suite writes them.
 */
export async function* readServerSentEvents(response) {
  if (!response.ok) throw new Error(`the stream answered HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** POSTs `body` as JSON to `url` and yields the response's events. */
export async function* postForEvents(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  yield* readServerSentEvents(response);
}
