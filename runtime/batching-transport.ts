/**
 * Automatic batching (docs/runtime.md, "Batching"): the calls made within one window (by default
 * the same tick) go to the server as one JSON-RPC batch, and each answer goes back to its caller
 * by id. Calls whose headers differ go in different batches (headers belong to the HTTP request),
 * except the contract header: calls to several interfaces share a batch, which lists their
 * fingerprints (docs/protocol.md, "Contract header").
 */
import {
  CONTRACT_HEADER,
  runCall,
  type CallOptions,
  type HttpConnectionSource,
  type HttpTransportOptions,
  type RpcCall,
  type Transport,
} from './client-call.js';
import { isErrorResponse, parseAnswer, postJson, resultOf, sendAlone, statusError } from './json-rpc-exchange.js';
import { transportError } from './transport-error.js';

export interface BatchingTransportOptions extends HttpTransportOptions {
  /** The most calls one request carries; more go in further requests. Default 100 (the server's default limit). */
  maxBatchSize?: number;
  /** How long the first call of a batch waits for others, in milliseconds. Default 0: the calls of the same tick. */
  windowMs?: number;
}

/** A call waiting for its batch. */
interface Member {
  call: RpcCall;
  /** False for a notification. */
  answered: boolean;
  /** Settles the call with its outcome: a value, or a promise of it (that may reject). */
  resolve(outcome: unknown): void;
}

/**
 * JSON-RPC 2.0 over HTTP POST like `HttpTransport` (same options, errors and per-call options),
 * sending the calls made together as one batch request. A server that answers a batch with a
 * single error (it does not take batches) gets every call of it again, one request each, and
 * from then on no batch. Stream methods' calls go alone (JSON-RPC batches cannot carry them), as
 * `streamMethod` opens them over any {@link HttpConnectionSource}.
 */
export class BatchingTransport implements Transport, HttpConnectionSource {
  // `#` members, not `private` ones: a minifier shortens their names (bundle size, docs/benchmarks.md).
  #nextId = 1;
  #queue: Member[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the server refused a batch. */
  #batchesRefused = false;

  constructor(
    readonly baseAddress: string,
    readonly options: BatchingTransportOptions = {},
  ) {}

  call(method: string, params: unknown[], options?: CallOptions): Promise<unknown> {
    return runCall(this.options, method, params, options, (call) => this.#enqueue(call, true));
  }

  /** Sends a notification (no answer) with the next batch; resolves once the server has taken it. */
  async notify(method: string, params: unknown[], options?: CallOptions): Promise<void> {
    await runCall(this.options, method, params, options, (call) => this.#enqueue(call, false));
  }

  #enqueue(call: RpcCall, answered: boolean): Promise<unknown> {
    return new Promise((resolve) => {
      this.#queue.push({ call, answered, resolve });
      this.#timer ??= setTimeout(() => this.#flush(), this.options.windowMs ?? 0);
    });
  }

  #flush(): void {
    // Keyed by JSON text (which starts with `[`), so no key is one an object has of its own.
    const byHeaders: Record<string, Member[]> = {};
    for (const member of this.#queue) {
      if (member.call.signal.aborted) continue;
      const key = JSON.stringify(Object.entries({ ...member.call.headers, [CONTRACT_HEADER]: '' }).sort());
      (byHeaders[key] ??= []).push(member);
    }
    this.#queue = [];
    this.#timer = undefined;
    const size = Math.max(1, this.options.maxBatchSize ?? 100);
    for (const group of Object.values(byHeaders)) {
      for (let start = 0; start < group.length; start += size) void this.#send(group.slice(start, start + size));
    }
  }

  async #send(members: Member[]): Promise<void> {
    if (members.length > 1 && !this.#batchesRefused) {
      const ids = members.map((member) => (member.answered ? this.#nextId++ : undefined));
      // A batch that failed as a whole fails each of its calls with that error.
      const outcome = await this.#exchange(members, ids).catch((error) => async () => {
        throw error;
      });
      if (outcome) {
        members.forEach((member, i) => {
          member.resolve(outcome(ids[i]));
        });
        return;
      }
      this.#batchesRefused = true;
    }
    for (const { call, answered, resolve } of members) {
      resolve(sendAlone(this.options.fetch ?? globalThis.fetch, this.baseAddress, call, answered ? this.#nextId++ : undefined));
    }
  }

  /**
   * Sends one batch and returns each member's outcome by its id (undefined: a notification), or
   * undefined when the server answered with one error for the whole batch (it ran none of it).
   * Throws the error every member fails with.
   */
  async #exchange(members: Member[], ids: (number | undefined)[]): Promise<((id: number | undefined) => Promise<unknown>) | undefined> {
    // The request stops only when every call in it has ended (timed out or aborted one by one).
    const controller = new AbortController();
    let open = members.length;
    for (const { call } of members) {
      call.signal.addEventListener('abort', () => --open === 0 && controller.abort(call.signal.reason), { once: true });
    }
    const body = members.map(({ call }, i) => ({ jsonrpc: '2.0', method: call.method, params: call.params, id: ids[i] }));
    const doFetch = this.options.fetch ?? globalThis.fetch;
    const contracts = new Set(members.map(({ call }) => call.headers[CONTRACT_HEADER]).filter(Boolean));
    const headers: Record<string, string> = { ...members[0].call.headers };
    if (contracts.size > 0) headers[CONTRACT_HEADER] = [...contracts].join(', ');
    const answer = await postJson(doFetch, this.baseAddress, headers, JSON.stringify(body), controller.signal);
    const { status } = answer;
    // Only notifications: the server answers 204 without a body.
    if (answer.ok && ids.every((id) => id === undefined) && answer.text.trim() === '') return async () => undefined;
    let responses: unknown;
    try {
      responses = parseAnswer(answer);
    } catch (error) {
      throw answer.ok ? error : statusError(answer);
    }
    // One error for the whole batch (a 5xx may have come after some of it ran, so not that).
    if (isErrorResponse(responses) && status < 500) return undefined;
    if (!answer.ok) throw statusError(answer);
    if (!Array.isArray(responses)) throw transportError('response is not a JSON-RPC response object', { status });
    const byId = new Map(responses.map((response) => [(response as { id?: unknown } | null)?.id, response]));
    return async (id) => {
      if (id === undefined) return undefined;
      if (!byId.has(id)) throw transportError(`no response for request id ${id} in the batch`, { status });
      return resultOf(byId.get(id), id, status);
    };
  }
}
