/**
 * What one call ends in, and how unexpected failures become answers: the vocabulary shared by call
 * execution (call-pipeline.ts) and the two bindings (json-rpc-binding.ts, rest-binding.ts).
 */
import { ErrorCode } from './errors.js';

export type JsonRpcId = string | number | null;
export type ErrorObject = { code: number; message: string; data?: unknown };
/** A settled call: the result to send, or the error object to send. */
export type Outcome = { result: unknown } | { error: ErrorObject };
export type MaybePromise<T> = T | Promise<T>;

export const INTERNAL_ERROR = 'Internal error';

/** Where unexpected errors go (the `logger` option of `createRpcServer`). */
export interface RpcLogger {
  error(message: string, error?: unknown): void;
  /** Things worth a look that are no failure (`contractMismatch: 'log'`); `error` when absent. */
  warn?(message: string): void;
}

export function errorOutcome(code: number, message: string, data?: unknown): Outcome {
  return { error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * Logs unexpected failures and turns them into -32603 outcomes, with their text and stack only when
 * `exposeErrors` is set (dev servers).
 */
export class FailureReporter {
  readonly #logger: RpcLogger;
  readonly exposeErrors: boolean;

  constructor(logger: RpcLogger, exposeErrors: boolean) {
    this.#logger = logger;
    this.exposeErrors = exposeErrors;
  }

  log(message: string, error?: unknown): void {
    try {
      this.#logger.error(message, error);
    } catch {
      // A broken logger must not turn one failed call into a crashed server.
    }
  }

  /** Logs something worth a look that is no failure: the logger's `warn`, else its `error`. */
  warn(message: string): void {
    try {
      if (this.#logger.warn) this.#logger.warn(message);
      else this.#logger.error(message);
    } catch {
      // A broken logger must not turn one call into a crashed server.
    }
  }

  /** Logs `<context> failed` with the error and gives the -32603 outcome to send. */
  internalError(context: string, error: unknown): Outcome {
    this.log(`${context} failed`, error);
    return this.#internalOutcome(error);
  }

  #internalOutcome(error: unknown): Outcome {
    if (!this.exposeErrors) return errorOutcome(ErrorCode.InternalError, INTERNAL_ERROR);
    const detail =
      error instanceof Error ? { message: describe(error.message), stack: describe(error.stack) } : { message: describe(error) };
    return errorOutcome(ErrorCode.InternalError, INTERNAL_ERROR, detail);
  }

  /**
   * Like `internalError`, for a failure the call's own input caused (`input` says what in it): logs
   * one line, `<context> failed on its input (<input>): <the error's message>`, the message cut
   * to its first line and 200 characters and quoted, never the stack, so a flood of such calls
   * costs a line each.
   */
  inputFailure(context: string, error: unknown, input: string): Outcome {
    const text = messageOf(error);
    const firstLine = text.split('\n', 1)[0];
    const shown = firstLine.length > MAX_LOGGED_MESSAGE ? `${firstLine.slice(0, MAX_LOGGED_MESSAGE)}...` : firstLine;
    this.log(`${context} failed on its input (${input}): ${JSON.stringify(shown)}`);
    return this.#internalOutcome(error);
  }
}

/** The longest error message logged for a failure caused by input (its text may echo the input). */
const MAX_LOGGED_MESSAGE = 200;

/** The message of an Error, else the text of the value; never throws (a `message` getter may). */
function messageOf(error: unknown): string {
  try {
    return describe(error instanceof Error ? error.message : error);
  } catch {
    return describe(error);
  }
}

/** Text of any thrown value; never throws itself (`String(Object.create(null))` would). */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[value without a text form]';
  }
}

/**
 * Returned by a step whose answer comes later, through its `deliver` callback. Steps answer either
 * at once or PENDING, so a call whose handler returns a plain value costs no promise at all; in a
 * batch, a promise wrapping every member cost about a tenth of the throughput.
 */
export const PENDING = Symbol('pending');

/**
 * Runs `start`, which answers at once or returns PENDING and later calls `deliver` (never
 * synchronously, so the resolver is in place by then); gives the answer or a promise of it.
 */
export function settleLater<T>(start: (deliver: (value: T) => void) => T | typeof PENDING): MaybePromise<T> {
  let resolveLater: ((value: T) => void) | undefined;
  const value = start((settled) => resolveLater!(settled));
  if (value !== PENDING) return value;
  return new Promise<T>((resolve) => {
    resolveLater = resolve;
  });
}

/** Runs `answer` and always gives a promise: a synchronous throw becomes a rejection, as from an async function. */
export function promiseOf<T>(answer: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(answer());
  } catch (error) {
    return Promise.reject(error);
  }
}
