/**
 * Small HTTP helpers for the dev-server tests: JSON-RPC calls and a bounded wait for a change
 * made on disk to be served.
 */

export interface JsonRpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** POSTs one JSON-RPC call and returns the parsed answer. */
export async function callRpc(url: string, method: string, params: unknown[]): Promise<JsonRpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as JsonRpcAnswer;
  } catch {
    throw new Error(`${url} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * Calls `probe` until `accept` holds for its value (a file watcher picks edits up asynchronously).
 * Gives up after `attempts` tries, returning the last value so the assertion shows what was served.
 */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, attempts = 100): Promise<T> {
  let value = await probe();
  for (let attempt = 1; attempt < attempts && !accept(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

/** POSTs an MCP `initialize` request as a client would; the status and the body's text. */
export async function postMcpInitialize(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    }),
  });
  return { status: response.status, text: await response.text() };
}
