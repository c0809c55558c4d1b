/**
 * Call execution: one call of a known method, from its params to its outcome. The params are
 * mapped to IDL order and validated, the handler runs under its deadline (inside the interceptors,
 * when there are any), and its result is validated. Both bindings (JSON-RPC and REST) run every
 * call through `CallPipeline.execute`, so per-call middleware has one place to plug in.
 */
import { fillFieldDefaults } from './field-defaults.js';
import { type OptionalParameters, withDefaults } from './optional-parameters.js';
import { CallContext, type RequestContext, type RpcContext } from './call-context.js';
import { errorOutcome, type FailureReporter, INTERNAL_ERROR, PENDING, promiseOf, type JsonRpcId, type Outcome } from './call-outcome.js';
import type { ContractCheck } from './contract-check.js';
import { DeadlineQueue } from './deadline-queue.js';
import { ErrorCode, RpcError } from './errors.js';
import type { MethodEntry } from './method-table.js';
import { lastEventIdOf } from './streams/event-ids.js';
import { isAsyncIterable, OpenedStream } from './streams/opened-stream.js';
import { nonTextParamsError } from './text-strings.js';
import { formatPath, MAX_ISSUES, type ValidationIssue, type ValidatorTable } from './validation.js';
import { convertWire, type WireConversion } from './wire-conversion.js';

/** One call, as an interceptor sees it. */
export interface RpcCall {
  /** `"<Interface>.<method>"`. */
  readonly method: string;
  /** The arguments in IDL order (validated when `validateRequests` is on); the handler gets these. */
  readonly params: readonly unknown[];
  /** The context the handler gets as its last argument. */
  readonly ctx: RpcContext;
}

/**
 * Per-call middleware around the handler: it runs after the params are validated and before the
 * result is. `next(added?)` copies `added` (if any) onto the handler's context, runs the
 * interceptors after it and then the handler, and resolves to the handler's result or rejects with
 * its error; call it at most once, or not at all to answer without the handler. What the
 * interceptor returns (a value or a promise) or throws stands for the handler's: the result is
 * validated and sent, an RpcError is sent as it is, anything else becomes -32603. The handler's
 * deadline covers the interceptors too. The first of a list is the outermost.
 *
 * When every interceptor returns what `next()` gave it, unchanged (`(call, next) => next()`), and
 * the handler returns a plain value or throws, the call is answered at once, as without
 * interceptors: no deadline, no pending answer.
 */
export type CallInterceptor = (call: RpcCall, next: (added?: object) => Promise<unknown>) => unknown;

export interface CallPipelineOptions {
  validators: ValidatorTable;
  validateRequests: boolean;
  validateResponses: boolean;
  /** How long a handler may take; 0 = no limit. */
  handlerTimeoutMs: number;
  failures: FailureReporter;
  /** Default none: then a handler that returns a plain value is answered without any promise. */
  interceptors?: readonly CallInterceptor[];
  /** The client's contract header against the server's (contract-check.ts); default none. */
  contractCheck?: ContractCheck;
  /** The interceptors of particular methods, by `"<Interface>.<method>"`, used instead of `interceptors` for them. */
  interceptorsByMethod?: ReadonlyMap<string, readonly CallInterceptor[]>;
}

export interface CallPipeline {
  /**
   * Runs one call of `entry`. Gives the outcome directly when there is no interceptor and the
   * handler returns a plain value (or the params are refused), so a synchronous handler costs no
   * promise at all. Otherwise gives PENDING and calls `deliver` exactly once, later (never
   * synchronously): when the handler settles or its deadline passes. Callbacks instead of a promise
   * per call: in a batch, a promise wrapping every member cost about a tenth of the throughput.
   */
  execute(
    entry: MethodEntry,
    params: unknown,
    id: JsonRpcId | undefined,
    request: RequestContext,
    deliver: (outcome: Outcome) => void,
  ): Outcome | typeof PENDING;
}

/** Builds the call execution of one server. */
export function createCallPipeline(options: CallPipelineOptions): CallPipeline {
  const { validators, validateRequests, validateResponses, handlerTimeoutMs, failures } = options;
  const interceptors = options.interceptors ?? [];
  const contractCheck = options.contractCheck;
  const byMethod =
    options.interceptorsByMethod !== undefined && options.interceptorsByMethod.size > 0 ? options.interceptorsByMethod : undefined;
  // One timer for every pending handler of this server instead of one per call (docs/benchmarks.md).
  const deadlines = handlerTimeoutMs > 0 ? new DeadlineQueue(handlerTimeoutMs) : undefined;

  function execute(
    entry: MethodEntry,
    params: unknown,
    id: JsonRpcId | undefined,
    request: RequestContext,
    deliver: (outcome: Outcome) => void,
  ): Outcome | typeof PENDING {
    // Before the params: a client of another version is told so, not that its params are wrong.
    if (contractCheck) {
      const refused = contractCheck(entry.name, request);
      if (refused) return refused;
    }
    const args = argumentsOf(entry, params);
    if (args instanceof ParamsProblems) return invalidParams(args.issues);
    const keyed = !Array.isArray(params) && params !== null && params !== undefined;
    const methodValidators = validators[entry.name];
    if (validateRequests && methodValidators) {
      let issues: ValidationIssue[] | undefined;
      for (let index = 0; index < args.length; index++) {
        const validator = methodValidators.params[index];
        const arg = args[index];
        // A left-out optional parameter without a default is `undefined`: nothing to check.
        if (validator && !validator.check(arg) && !(arg === undefined && index >= (entry.optional?.required ?? args.length))) {
          const prefix = ['params', keyed ? entry.parameterNames[index] : index];
          for (const issue of validator.errors(arg)) (issues ??= []).push({ path: [...prefix, ...issue.path], message: issue.message });
        }
      }
      if (issues) return invalidParams(issues);
    }
    // Fields a request leaves out get their defaults (in wire form: converted with the rest below).
    if (entry.fieldDefaults !== undefined) fillFieldDefaults(args, entry.fieldDefaults);
    // The handler gets `Date`s and `Uint8Array`s where the IDL says timestamp and bytes.
    const conversion = entry.conversion;
    if (conversion !== undefined) convertArguments(args as unknown[], conversion);

    const ctx = new CallContext(request, id, entry.name, entry.parameterNames, keyed);
    const isStream = entry.method.stream === true;
    if (isStream) ctx.lastEventId = lastEventIdOf(request.headers);
    let pending: Promise<unknown>;
    const chain = byMethod === undefined ? interceptors : (byMethod.get(entry.name) ?? interceptors);
    if (chain.length > 0) {
      const answer = intercept(chain, entry, args, ctx);
      if (!(answer instanceof Promise)) return answer;
      pending = answer;
    } else {
      try {
        const value = callHandler(entry, args, ctx);
        if (value instanceof Promise) {
          pending = value;
        } else {
          const then = thenOf(value);
          if (then === undefined) return resultOutcome(entry, value);
          // A foreign thenable: adopt it the way `await` would, a throwing `then` becoming a failure.
          pending = new Promise((resolve, reject) => then.call(value, resolve, reject));
        }
      } catch (error) {
        return failureOutcome(entry, error, args, ctx);
      }
    }

    // A stream's handler has no deadline: its time limits are the stream's own (runtime/streams/).
    if (deadlines === undefined || isStream) {
      pending.then(
        (result) => deliver(resultOutcome(entry, result)),
        (error: unknown) => deliver(failureOutcome(entry, error, args, ctx)),
      );
      return PENDING;
    }
    // Whichever comes first answers: the handler settling, or its deadline (which also aborts
    // ctx.signal). The queue never expires a deleted deadline, so only `timedOut` needs checking.
    let timedOut = false;
    const deadline = deadlines.add(() => {
      timedOut = true;
      const timeoutError = new Error(`${entry.name} did not finish within ${handlerTimeoutMs} ms`);
      CallContext.abort(ctx, timeoutError);
      deliver(failureOutcome(entry, timeoutError));
    });
    pending.then(
      (result) => {
        if (timedOut) return;
        deadlines.delete(deadline);
        deliver(resultOutcome(entry, result));
      },
      (error: unknown) => {
        if (timedOut) return;
        deadlines.delete(deadline);
        deliver(failureOutcome(entry, error, args, ctx));
      },
    );
    return PENDING;
  }

  /** The call inside its interceptors: the outcome when it is known at once, else a promise of the answer. */
  function intercept(
    chain: readonly CallInterceptor[],
    entry: MethodEntry,
    args: readonly unknown[],
    ctx: CallContext,
  ): Outcome | Promise<unknown> {
    const call = new InterceptedCall(chain, entry, args, ctx);
    const answer = InterceptedCall.run(call);
    if (answer !== SETTLED_AT_ONCE) return answer;
    const settled = InterceptedCall.settled(call);
    return InterceptedCall.failed(call) ? failureOutcome(entry, settled, args, ctx) : resultOutcome(entry, settled);
  }

  /**
   * A handler's result: `undefined` becomes null, then the result is checked when asked to. A
   * stream method's is its iterable of items, opened (each item is checked as it comes).
   */
  function resultOutcome(entry: MethodEntry, result: unknown): Outcome {
    if (entry.method.stream === true) return streamOutcome(entry, result);
    if (result === undefined) result = null;
    return checkedValue(entry, result, 'result');
  }

  /** A stream method's outcome: its handler's iterable, opened; anything else is the handler's failure. */
  function streamOutcome(entry: MethodEntry, iterable: unknown): Outcome {
    if (!isAsyncIterable(iterable)) {
      const got = iterable === null ? 'null' : typeof iterable;
      return failures.internalError(
        entry.name,
        new TypeError(`a stream method's handler must return an AsyncIterable (an async generator) or a promise of one, got ${got}`),
      );
    }
    const stream = new OpenedStream(
      iterable,
      (item) => checkedValue(entry, item, 'item'),
      (error) => failureOutcome(entry, error),
    );
    return { result: stream };
  }

  /** A result (or a stream's item) converted to the wire and checked when `validateResponses` is on. */
  function checkedValue(entry: MethodEntry, result: unknown, what: 'result' | 'item'): Outcome {
    const resultShape = entry.conversion?.r;
    if (resultShape) {
      try {
        result = convertWire(result, resultShape, entry.conversion!.s, true);
      } catch (error) {
        // An invalid Date (toISOString throws), a throwing getter: the handler's failure, never the server's.
        return failureOutcome(entry, error);
      }
    }
    const methodValidators = validators[entry.name];
    if (validateResponses && methodValidators && !methodValidators.result.check(result)) {
      const errors = methodValidators.result
        .errors(result)
        .map((issue) => ({ path: formatPath([what, ...issue.path]), message: issue.message }));
      const did = what === 'result' ? 'returned an invalid result' : 'yielded an invalid item';
      failures.log(`${entry.name} ${did}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
      return errorOutcome(
        ErrorCode.InternalError,
        `${INTERNAL_ERROR}: invalid ${what} of ${entry.name}`,
        failures.exposeErrors ? { errors } : undefined,
      );
    }
    return { result };
  }

  /**
   * A handler's failure: an RpcError is sent as it is, anything else is an internal error. One whose
   * call brought strings that are no text (`args`, text-strings.ts) is taken as caused by them (a
   * database refusing NUL, say) and logged in one line, without the stack: a client sending them by
   * the hundred would otherwise fill the log with stacks (docs/runtime.md, "Strings that are no text").
   */
  function failureOutcome(entry: MethodEntry, error: unknown, args?: readonly unknown[], ctx?: CallContext): Outcome {
    if (error instanceof RpcError) return errorOutcome(error.code, error.message, error.data);
    const cause = args === undefined ? undefined : nonTextParamsError(args, ctx);
    if (cause !== undefined) {
      const [first] = (cause.data as { errors: { path: string; message: string }[] }).errors;
      return failures.inputFailure(entry.name, error, `${first.path} ${first.message}`);
    }
    return failures.internalError(entry.name, error);
  }

  return { execute };
}

const ignore = () => undefined;

/** What `InterceptedCall.run` gives when the outcome is known at once (the call holds it). */
const SETTLED_AT_ONCE = Symbol('settled at once');

/**
 * One call run inside the interceptors, the first outermost; it is also the `call` they receive.
 * A class rather than closures: a call with one pass-through interceptor allocates the call, one
 * `next` function and the promise `next()` must return, and nothing else (docs/benchmarks.md).
 */
class InterceptedCall implements RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
  readonly ctx: CallContext;
  readonly #interceptors: readonly CallInterceptor[];
  readonly #entry: MethodEntry;
  /** The promise `next()` gave for a handler that returned a plain value or threw. */
  #innermost: Promise<unknown> | undefined;
  /** 1: the handler returned `#settled`; 2: it threw `#settled`. */
  #settledKind: 0 | 1 | 2 = 0;
  #settled: unknown;

  constructor(interceptors: readonly CallInterceptor[], entry: MethodEntry, args: readonly unknown[], ctx: CallContext) {
    this.method = entry.name;
    this.params = args;
    this.ctx = ctx;
    this.#interceptors = interceptors;
    this.#entry = entry;
  }

  /**
   * After `run` gave SETTLED_AT_ONCE: whether the answer is an error, and the value or error.
   * Static, so interceptors never see them on the call.
   */
  static failed(call: InterceptedCall): boolean {
    return call.#settledKind === 2;
  }

  static settled(call: InterceptedCall): unknown {
    return call.#settled;
  }

  /**
   * Runs the call: a promise of the handler's (or an interceptor's) answer (a synchronous throw
   * becomes a rejection, a thenable is adopted), or SETTLED_AT_ONCE when the outermost interceptor
   * returned the very promise `next()` gave for a handler that returned a plain value or threw:
   * every one passed it through, so the outcome is known now (`failed`, `settled`). Static, like
   * those, so interceptors never see it on the call they get.
   */
  static run(call: InterceptedCall): Promise<unknown> | typeof SETTLED_AT_ONCE {
    return call.#run();
  }

  #run(): Promise<unknown> | typeof SETTLED_AT_ONCE {
    let returned: unknown;
    try {
      returned = this.#interceptors[0](this, this.#nextOf(0));
    } catch (error) {
      return Promise.reject(error);
    }
    if (returned === this.#innermost && this.#settledKind !== 0) return SETTLED_AT_ONCE;
    if (returned instanceof Promise) return returned;
    if (thenOf(returned) === undefined) {
      this.#settledKind = 1;
      this.#settled = returned;
      return SETTLED_AT_ONCE;
    }
    return promiseOf(() => returned as PromiseLike<unknown>);
  }

  /** The `next` given to interceptor `index`: at most once, copies `added`, then runs the rest. */
  #nextOf(index: number): (added?: object) => Promise<unknown> {
    let called = false;
    return (added) => {
      if (called) return Promise.reject(new Error(`an interceptor of ${this.method} called next() more than once`));
      called = true;
      try {
        if (added !== undefined && added !== null) CallContext.addValues(this.ctx, added);
      } catch (error) {
        return Promise.reject(error);
      }
      const following = index + 1;
      if (following === this.#interceptors.length) return this.#runHandler();
      return promiseOf(() => this.#interceptors[following](this, this.#nextOf(following)));
    };
  }

  #runHandler(): Promise<unknown> {
    const entry = this.#entry;
    let value: unknown;
    try {
      value = callHandler(entry, this.params, this.ctx);
    } catch (error) {
      this.#settledKind = 2;
      this.#settled = error;
      const rejected = Promise.reject(error);
      // Marked as handled: when every interceptor passes it through, the error is answered at once.
      rejected.catch(ignore);
      this.#innermost = rejected;
      return rejected;
    }
    if (value instanceof Promise) return value;
    if (thenOf(value) !== undefined) return promiseOf(() => value as PromiseLike<unknown>);
    this.#settledKind = 1;
    this.#settled = value;
    this.#innermost = Promise.resolve(value);
    return this.#innermost;
  }
}

/**
 * Calls the handler with the arguments and the context. Most methods have up to three parameters:
 * for them a direct call spares building the argument list (`[...args, ctx]`) of `apply`.
 */
function callHandler(entry: MethodEntry, args: readonly unknown[], ctx: RpcContext): unknown {
  const { fn, handler } = entry;
  switch (args.length) {
    case 0:
      return fn.call(handler, ctx);
    case 1:
      return fn.call(handler, args[0], ctx);
    case 2:
      return fn.call(handler, args[0], args[1], ctx);
    case 3:
      return fn.call(handler, args[0], args[1], args[2], ctx);
    default:
      return fn.apply(handler, [...args, ctx]);
  }
}

/** The arguments with their wire timestamps and bytes made `Date`s and `Uint8Array`s (the array in place). */
function convertArguments(args: unknown[], { p, s }: WireConversion): void {
  for (let index = 0; index < args.length; index++) {
    const shape = p[index];
    if (!shape || args[index] === undefined) continue; // a left-out optional parameter stays undefined
    try {
      args[index] = convertWire(args[index], shape, s, false);
    } catch {
      // Only unvalidated params get here (`validateRequests: false`): bytes that are no base64
      // make `atob` throw. The handler then gets the param as it was sent.
    }
  }
}

/** What is wrong with the params as a whole (their number, names), found before any validation. */
class ParamsProblems {
  constructor(readonly issues: ValidationIssue[]) {}
}

const NO_ARGUMENTS: readonly unknown[] = Object.freeze([]);

/**
 * Maps params (positional, named, or none) to IDL order, or lists what is wrong. Positional params
 * are the arguments as they are: no copy, no wrapper object on the way of every call.
 */
function argumentsOf(entry: MethodEntry, params: unknown): readonly unknown[] | ParamsProblems {
  const names = entry.parameterNames;
  if (entry.optional !== undefined) return argumentsWithOptional(names, entry.optional, params);
  if (Array.isArray(params) && params.length === names.length) return params;
  const count = `${names.length} parameter${names.length === 1 ? '' : 's'}`;
  if (params === undefined || params === null) {
    return names.length === 0
      ? NO_ARGUMENTS
      : new ParamsProblems([{ path: ['params'], message: `expected ${count} (${names.join(', ')}), got none` }]);
  }
  if (Array.isArray(params)) return new ParamsProblems([{ path: ['params'], message: `expected ${count}, got ${params.length}` }]);
  const named = params as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(named)) {
    if (!names.includes(key)) issues.push({ path: ['params', key], message: `unknown parameter '${key}'` });
  }
  for (const name of names) {
    if (!Object.hasOwn(named, name)) issues.push({ path: ['params'], message: `missing parameter '${name}'` });
  }
  return issues.length > 0 ? new ParamsProblems(issues) : names.map((name) => named[name]);
}

/**
 * `argumentsOf` for a method with optional parameters: positional params may leave trailing ones out
 * (or send `null`), named params may omit them; each left out gets its default or `undefined`.
 */
function argumentsWithOptional(names: string[], optional: OptionalParameters, params: unknown): unknown[] | ParamsProblems {
  const { required } = optional;
  const requiredNames = names.slice(0, required);
  if (params === undefined || params === null) {
    if (required === 0) return withDefaults(NO_ARGUMENTS, names.length, optional);
    return new ParamsProblems([
      { path: ['params'], message: `expected ${requiredNames.length} to ${names.length} parameters (${names.join(', ')}), got none` },
    ]);
  }
  if (Array.isArray(params)) {
    if (params.length >= required && params.length <= names.length) return withDefaults(params, names.length, optional);
    return new ParamsProblems([{ path: ['params'], message: `expected ${required} to ${names.length} parameters, got ${params.length}` }]);
  }
  const named = params as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(named)) {
    if (!names.includes(key)) issues.push({ path: ['params', key], message: `unknown parameter '${key}'` });
  }
  for (const name of requiredNames) {
    if (!Object.hasOwn(named, name)) issues.push({ path: ['params'], message: `missing parameter '${name}'` });
  }
  if (issues.length > 0) return new ParamsProblems(issues);
  return withDefaults(
    names.map((name) => (Object.hasOwn(named, name) ? named[name] : undefined)),
    names.length,
    optional,
  );
}

function invalidParams(issues: ValidationIssue[]): Outcome {
  const errors = issues.slice(0, MAX_ISSUES).map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return errorOutcome(ErrorCode.InvalidParams, `Invalid params: ${errors[0].path}: ${errors[0].message}`, { errors });
}

/** The `then` method of a thenable handler result, else undefined (read once: it may be a getter, and may throw). */
function thenOf(value: unknown): ((this: unknown, resolve: (v: unknown) => void, reject: (e: unknown) => void) => unknown) | undefined {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return undefined;
  const then = (value as { then?: unknown }).then;
  return typeof then === 'function' ? (then as ReturnType<typeof thenOf>) : undefined;
}
