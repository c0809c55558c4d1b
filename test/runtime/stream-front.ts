/**
 * A node:http front of an RpcServer that writes a stream method's answer chunk by chunk (each chunk
 * on the socket before the next is asked for; the client going away cancels it), as the Node
 * adapter's contract says, and serves an API page. The client's tests use it where they need the
 * real server core behind a socket; it can cut a connection mid-stream and swap the server behind
 * it (a restart). Every front is closed after the test file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { DocsPage } from '../../runtime/docs-page/index.js';
import type { RpcServer } from '../../runtime/server.js';

export interface StreamFront {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** The server behind the front; replace it to simulate a restart. */
  serving: { server: RpcServer };
  /** Breaks the next stream's connection after this many chunks. */
  cutAfter?: number;
  /** Per request, when its connection closed. */
  closed: Promise<void>[];
}

const fronts: http.Server[] = [];
afterAll(async () => {
  for (const server of fronts.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** What answers the front's GETs: an API page, or a test's own page. */
export type PageAnswer = Pick<DocsPage, 'answer'> & Partial<Pick<DocsPage, 'mount'>>;

export async function streamFront(server: RpcServer, docsPage?: PageAnswer): Promise<StreamFront> {
  const state: StreamFront = { url: '', serving: { server }, closed: [] };
  docsPage?.mount?.({ basePath: '/', methodNames: server.methodNames });
  const front = http.createServer(async (req, res) => {
    if (docsPage?.answer(req, res)) return;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    state.closed.push(new Promise((resolve) => res.on('close', () => resolve())));
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    const answer = await state.serving.server.handleHttp({
      method: req.method ?? 'POST',
      path: new URL(req.url ?? '/', 'http://front').pathname,
      body: Buffer.concat(chunks),
      headers,
    });
    res.writeHead(answer.status, answer.headers);
    const { stream } = answer;
    if (stream === undefined) {
      res.end(answer.body);
      return;
    }
    res.on('close', () => stream.cancel());
    let cut = state.cutAfter;
    state.cutAfter = undefined;
    for (let chunk = await stream.next(); chunk !== undefined; chunk = await stream.next()) {
      if (cut !== undefined && cut-- === 0) {
        res.socket?.destroy();
        return;
      }
      await new Promise((resolve) => res.write(chunk, resolve));
    }
    res.end();
  });
  fronts.push(front);
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/`;
  return state;
}
