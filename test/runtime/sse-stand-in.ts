/**
 * A stand-in stream server for the client's tests: node:http answering each request as the test
 * says, with helpers writing the wire's exact bytes (docs/protocol.md, "Streams"). Every server is
 * closed after each test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One request the server got: its JSON-RPC body and headers, and when its connection closed. */
export interface Seen {
  body: { method: string; params: unknown[]; id: number };
  headers: http.IncomingHttpHeaders;
  closed: Promise<void>;
}

export type Respond = (request: Seen, response: http.ServerResponse, index: number) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering the n-th request with `respond`; returns its address and what it saw. */
export async function sseServer(respond: Respond): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => {
      const closed = new Promise<void>((resolve) => response.on('close', () => resolve()));
      const entry: Seen = { body: JSON.parse(text), headers: request.headers, closed };
      seen.push(entry);
      respond(entry, response, seen.length - 1);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, seen };
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };
export const item = (requestId: number, eventId: string, value: unknown) =>
  `id: ${eventId}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: requestId, item: value } })}\n\n`;
export const end = (requestId: number) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: requestId, result: null })}\n\n`;
export const failure = (requestId: number, error: object) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: requestId, error })}\n\n`;
export const reconnect = (requestId: number, retryMs: number) =>
  `retry: ${retryMs}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'rpc.stream.reconnect', params: { id: requestId } })}\n\n`;

/** Items 1..count from after `last-event-id`, each with its ordinal as id. */
export function countFrom(seen: Seen, count: number): string {
  const after = Number(seen.headers['last-event-id'] ?? 0);
  let text = '';
  for (let n = after + 1; n <= count; n++) text += item(seen.body.id, String(n), { n });
  return text;
}
