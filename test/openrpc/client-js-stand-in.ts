/**
 * A stand-in for `@open-rpc/client-js` (the HTTP part of its API that the client `@open-rpc/generator`
 * writes uses): the generated client's package.json asks for it, and it is not among this
 * repository's dev dependencies. Calls are JSON-RPC 2.0 POSTs with fetch; an error answer rejects
 * with `JSONRPCError(message, code, data)`, as client-js does. Used only when the real package
 * cannot be resolved (test/openrpc/generated-client.ts).
 */

/** client-js's error of an error answer. */
export class JSONRPCError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The HTTP transport: where the calls go. */
export class HTTPTransport {
  constructor(readonly uri: string) {}
}

/** The other transports of client-js, which the generated client names but these tests never use. */
class UnavailableTransport {
  constructor() {
    throw new Error('this transport is not part of the client-js stand-in: use http');
  }
}
export { UnavailableTransport as WebSocketTransport };
export { UnavailableTransport as PostMessageWindowTransport };
export { UnavailableTransport as PostMessageIframeTransport };

/** Holds the transports; the stand-in uses the first, which must be HTTP. */
export class RequestManager {
  constructor(readonly transports: HTTPTransport[]) {}
}

let nextId = 1;

/** The client: one request at a time, as the generated methods send them. */
export class Client {
  constructor(private readonly manager: RequestManager) {}

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    const [transport] = this.manager.transports;
    const response = await fetch(transport.uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (answer.error) throw new JSONRPCError(answer.error.message, answer.error.code, answer.error.data);
    return answer.result;
  }

  notify(): Promise<void> {
    throw new Error('notifications are not part of the client-js stand-in');
  }

  onNotification(): void {}
  onError(): void {}
  startBatch(): void {}
  stopBatch(): void {}
}
