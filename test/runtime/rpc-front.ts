/**
 * A real checkout server behind a front the test steers: each request is counted and recorded,
 * then passed to the RPC server, answered with a fixed status, or its connection cut before or
 * after the server ran the call (an answer lost on the way back).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRpcServer, type RpcServerOptions } from '../../runtime/index.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers } from './helpers.js';

/** What the front does with one request. */
export type FrontAction =
  | 'pass'
  /** The server runs the call, then the connection is cut: the answer is lost. */
  | 'lose-answer'
  | { status: number; headers?: Record<string, string>; body?: string };

export interface FrontRequest {
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body: one request object or a batch array. */
  body: unknown;
}

export interface RpcFront {
  url: string;
  port: number;
  /** Every request that reached the front, in order. */
  requests: FrontRequest[];
  /** The handlers' record of the calls the server ran, by method: `Interface.method` -> count. */
  ran: Map<string, number>;
  /** Decides each request's fate (default: pass). */
  plan: (request: FrontRequest, index: number) => FrontAction;
  close(): Promise<void>;
}

/** Counts every handler run by wrapping each handler method of the checkout service. */
function countingHandlers(ran: Map<string, number>) {
  const { handlers } = checkoutHandlers();
  const counted: Record<string, Record<string, unknown>> = {};
  for (const [iface, methods] of Object.entries(handlers)) {
    counted[iface] = {};
    for (const [name, handler] of Object.entries(methods as Record<string, (...args: unknown[]) => unknown>)) {
      counted[iface][name] = (...args: unknown[]) => {
        ran.set(`${iface}.${name}`, (ran.get(`${iface}.${name}`) ?? 0) + 1);
        return handler.apply(methods, args);
      };
    }
  }
  return counted;
}

/** Starts the front on 127.0.0.1 (on `port` when given). */
export async function startRpcFront(options: { port?: number; server?: Partial<RpcServerOptions> } = {}): Promise<RpcFront> {
  const ran = new Map<string, number>();
  const rpc = createRpcServer({ idl: checkoutIdl, handlers: countingHandlers(ran), logger: { error: () => undefined }, ...options.server });
  const front: Omit<RpcFront, 'url' | 'port' | 'close'> = { requests: [], ran, plan: () => 'pass' };
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      const request: FrontRequest = { headers: req.headers, body: JSON.parse(text) };
      front.requests.push(request);
      const action = front.plan(request, front.requests.length - 1);
      if (typeof action === 'object') {
        res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers }).end(action.body ?? '{"error":"refused"}');
        return;
      }
      const answer = await rpc.handleHttp({
        method: 'POST',
        path: req.url ?? '/',
        body: text,
        headers: req.headers as Record<string, string>,
      });
      if (action === 'lose-answer') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(front as RpcFront, {
    url: `http://127.0.0.1:${port}/rpc`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  });
}
