/**
 * An RPC server with one stream method, `Ticker.ticks(count int) stream Tick`, for the adapter
 * tests: the handler is an async generator `ticks(count, ctx)`.
 */
import { createRpcServer, type RpcContext, type RpcServer, type RpcServerOptions } from '../../runtime/index.js';
import { tickerIdl } from './fixtures/ticker-idl.js';

export interface Tick {
  n: number;
  text: string;
}

export type TickHandler = (count: number, ctx: RpcContext) => AsyncIterable<Tick>;

/** The server of `ticks`, logging nowhere (a client that leaves is no error). */
export function streamServer(ticks: TickHandler, options: Partial<RpcServerOptions> = {}): RpcServer {
  return createRpcServer({ idl: tickerIdl, handlers: { Ticker: { ticks } }, logger: { error: () => undefined }, ...options });
}

/** Resolves with `promise`, or rejects once `signal` aborts (how a handler waits and still ends when told). */
export function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}

/** A promise and the function that resolves it. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
