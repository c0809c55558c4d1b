/**
 * Graceful shutdown of the HTTP server `listen` starts: stop accepting connections, end open streams
 * with the reconnect message (their clients resume elsewhere, or here after a restart), let the calls
 * in flight finish and answer (bounded by a timeout), close keep-alive connections as they fall idle,
 * and resolve once every connection is gone. Nothing is added to the path of a request before
 * shutdown begins: the server's own connection tracking (`closeIdleConnections`) does the work.
 */
import type { Server } from 'node:http';
import type { RpcServer } from './server.js';

export interface ShutdownOptions {
  /** How long calls in flight may take to finish; then their connections are closed. Default 10 000 ms. */
  timeoutMs?: number;
}

export interface ShutdownResult {
  /** True when the timeout passed with calls still in flight (their connections were closed). */
  timedOut: boolean;
}

/** The `http.Server` that `listen` gives: Node's server, plus `shutdown`. */
export interface RpcHttpServer extends Server {
  /**
   * Stops accepting connections, ends open streams with the reconnect message, waits for the calls
   * in flight (up to `timeoutMs`), closes idle keep-alive connections, and resolves once the port is
   * free. Calling it again gives the same promise.
   */
  shutdown(options?: ShutdownOptions): Promise<ShutdownResult>;
}

/** How often idle connections are looked for while calls finish. */
const IDLE_CHECK_MS = 25;

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** Gives `httpServer`, which serves `rpcServer`, its `shutdown` method (see RpcHttpServer). */
export function addShutdown(httpServer: Server, rpcServer: Pick<RpcServer, 'closeStreams'>): RpcHttpServer {
  let shuttingDown: Promise<ShutdownResult> | undefined;
  const server = httpServer as RpcHttpServer;
  server.shutdown = (options = {}) => {
    shuttingDown ??= new Promise((resolve) => {
      const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      // Answers from now on tell keep-alive clients to go elsewhere for their next call.
      httpServer.prependListener('request', (_req, res) => {
        if (!res.headersSent) res.shouldKeepAlive = false;
      });
      let timedOut = false;
      const idleCheck = setInterval(() => httpServer.closeIdleConnections(), IDLE_CHECK_MS);
      const deadline = setTimeout(() => {
        timedOut = true;
        httpServer.closeAllConnections();
      }, timeoutMs);
      // Each open stream gets its reconnect message and ends; its connection then falls idle and is closed below.
      rpcServer.closeStreams().catch(() => undefined);
      // close() stops accepting at once and calls back when the last connection has closed.
      httpServer.close(() => {
        clearInterval(idleCheck);
        clearTimeout(deadline);
        resolve({ timedOut });
      });
      httpServer.closeIdleConnections();
    });
    return shuttingDown;
  };
  return server;
}

/**
 * On each of `signals`, shuts `server` down, then raises the signal again with this handler gone,
 * so the process ends as it would have (unless the application listens for the signal too).
 */
export function shutdownOnSignals(server: RpcHttpServer, signals: readonly NodeJS.Signals[], options: ShutdownOptions): void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  const onSignal = (signal: NodeJS.Signals) => {
    for (const [name, handler] of handlers) process.off(name, handler);
    server.shutdown(options).then(() => process.kill(process.pid, signal));
  };
  for (const signal of signals) {
    const handler = () => onSignal(signal);
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  // A server closed some other way leaves the signals alone.
  server.once('close', () => {
    for (const [name, handler] of handlers) process.off(name, handler);
  });
}
