/**
 * The standalone server as a process of its own, for the tests that kill it, run several of it or
 * measure its memory: built once per test file, started with an environment, talked to in raw
 * JSON-RPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';
import { waitForOutput } from '../child-process.js';
import { freePort, playgroundConfig, repositoryRoot } from './harness.js';

/** Builds the server bundle (`vite build --ssr`) inside the repository, so that it finds node_modules; returns main.js. */
export async function buildServer(): Promise<{ mainJs: string; remove(): Promise<void> }> {
  const testOutput = path.join(repositoryRoot, 'test-output');
  await mkdir(testOutput, { recursive: true });
  const outDir = await mkdtemp(path.join(testOutput, 'playground-server-'));
  await build({ configFile: playgroundConfig, logLevel: 'warn', build: { ssr: true, outDir } });
  return { mainJs: path.join(outDir, 'main.js'), remove: () => rm(outDir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** SIGTERM, and resolves once the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL, and resolves once the process has exited. */
  kill(): Promise<void>;
}

/** Sends `signal` and resolves once the process has exited (at once when it already has). */
function signalAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

/**
 * Starts `node main.js` on `port` (a free one by default) with `env` (over the test's environment,
 * DATABASE_URL cleared unless given) and resolves once it says where its data is (it then listens).
 */
export async function startServer(mainJs: string, env: Record<string, string>, port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, [mainJs], {
    env: { ...process.env, DATABASE_URL: '', ...env, SERVER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(child, /Data: .*\n/, 60_000, `the checkout server (${mainJs})`);
  return {
    child,
    url: `http://127.0.0.1:${port}/`,
    stop: () => signalAndWait(child, 'SIGTERM'),
    kill: () => signalAndWait(child, 'SIGKILL'),
  };
}

/** A JSON-RPC answer: `result` or `error`. */
export interface RpcAnswer<T = unknown> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC call with positional params. */
export async function rpc<T = unknown>(url: string, method: string, ...params: unknown[]): Promise<RpcAnswer<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as RpcAnswer<T>;
}

/** Resident memory of a process in MiB (Linux /proc). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kib / 1024;
}

/** One event of a stream method's answer: an item (with its SSE id) or the final response. */
export interface StreamMessage {
  /** The SSE `id:` of an item event. */
  eventId?: string;
  method?: string;
  params?: { id: unknown; item: unknown };
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * Calls a stream method with positional params (and `Last-Event-ID` when given), and returns the
 * JSON-RPC messages of its events as they come, until the body ends or `stop` says so after a message.
 */
export async function streamCall(
  url: string,
  method: string,
  params: unknown[],
  options: { lastEventId?: string; stop?: (messages: StreamMessage[]) => boolean } = {},
): Promise<StreamMessage[]> {
  const abort = new AbortController();
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: abort.signal,
  });
  const messages: StreamMessage[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const data = event.find((line) => line.startsWith('data: '));
        if (data === undefined) continue; // a heartbeat
        const message = JSON.parse(data.slice('data: '.length)) as StreamMessage;
        const id = event.find((line) => line.startsWith('id: '));
        if (id !== undefined) message.eventId = id.slice('id: '.length);
        messages.push(message);
        if (options.stop?.(messages)) return messages;
      }
    }
    return messages;
  } finally {
    abort.abort();
  }
}
