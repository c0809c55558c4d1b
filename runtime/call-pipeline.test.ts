/**
 * The call pipeline's seam for per-call middleware: interceptors wrap the handler (they see the
 * method, the params in IDL order, the handler's context, and the result or error), and without
 * any the pipeline answers a plain-value handler synchronously, with no promise.
 */
import { describe, expect, it, vi } from 'vitest';
import { calcIdl } from '../test/runtime/fixtures/calc-idl.js';
import type { RequestContext, RpcContext } from './call-context.js';
import { FailureReporter, PENDING, type Outcome } from './call-outcome.js';
import { createCallPipeline, type CallInterceptor, type RpcCall } from './call-pipeline.js';
import { ErrorCode, RpcError } from './errors.js';
import { createJsonRpcBinding } from './json-rpc-binding.js';
import { registerHandlers } from './method-table.js';
import { createStreamCalls } from './streams/stream-calls.js';
import { STREAM_DEFAULTS } from './streams/stream-limits.js';
import { compileValidators } from './validation.js';

const validators = compileValidators(calcIdl);

/** A pipeline over the calc IDL with `handlers`, and how to run one call through it. */
function setUp(handlers: Record<string, unknown>, interceptors?: CallInterceptor[], handlerTimeoutMs = 0) {
  const logger = { error: vi.fn() };
  const failures = new FailureReporter(logger, false);
  const methods = registerHandlers(calcIdl, { Calc: { ...plainCalc, ...handlers } });
  const calls = createCallPipeline({
    validators,
    validateRequests: true,
    validateResponses: true,
    handlerTimeoutMs,
    failures,
    interceptors,
  });
  const request: RequestContext = { headers: { 'x-caller': 'test' } };
  /** Runs `Calc.<method>`: the outcome returned at once (or PENDING), and a promise of the one delivered later. */
  const run = (method: string, params: unknown, id: string | number | null | undefined = 7) => {
    let deliveries = 0;
    let delivered!: (outcome: Outcome) => void;
    const later = new Promise<Outcome>((resolve) => (delivered = resolve));
    const now = calls.execute(methods.get(`Calc.${method}`)!, params, id, request, (outcome) => {
      deliveries++;
      delivered(outcome);
    });
    return { now, later, deliveries: () => deliveries };
  };
  return { run, logger, methods, calls, failures };
}

const plainCalc = {
  add: (a: number, b: number) => a + b,
  join: (first: string, second: string, third: string) => `${first}-${second}-${third}`,
  ping: () => true,
  echoTree: (tree: unknown) => tree,
  describe: () => null,
  tag: (value: string) => `#${value}`,
  totals: () => ({}),
};

describe('without interceptors', () => {
  it('answers a plain-value handler at once: the outcome is returned, nothing is delivered later', async () => {
    const { run } = setUp({});
    const call = run('add', [2, 3]);
    expect(call.now).toEqual({ result: 5 });
    await Promise.resolve();
    expect(call.deliveries()).toBe(0);
  });

  it('answers through the JSON-RPC binding without a promise when every handler returns a plain value', () => {
    const { methods, calls, failures } = setUp({});
    const streams = createStreamCalls({ calls, failures, limits: STREAM_DEFAULTS });
    const binding = createJsonRpcBinding({ idl: calcIdl, methods, calls, failures, maxBatchSize: 100, maxDepth: 128, streams });
    const single = binding.answerJson({ jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 1 }, {});
    expect(single).toEqual({ jsonrpc: '2.0', result: 3, id: 1 });
    const body = binding.answerBody(
      '[{"jsonrpc":"2.0","method":"Calc.ping","id":1},{"jsonrpc":"2.0","method":"Calc.add","params":{"a":1,"b":1},"id":2}]',
      {},
    );
    expect(body).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '[{"jsonrpc":"2.0","result":true,"id":1},{"jsonrpc":"2.0","result":2,"id":2}]',
    });
  });

  it('delivers an async handler later, once', async () => {
    const { run } = setUp({ add: async (a: number, b: number) => a + b });
    const call = run('add', [2, 3]);
    expect(call.now).toBe(PENDING);
    expect(await call.later).toEqual({ result: 5 });
    expect(call.deliveries()).toBe(1);
  });
});

describe('an interceptor', () => {
  it('wraps the call: sees the method, the params in IDL order and the context, then the result', async () => {
    const seen: { call: RpcCall; ctx: RpcContext; headers: Record<string, string>; result?: unknown }[] = [];
    const handlerContexts: RpcContext[] = [];
    const watch: CallInterceptor = async (call, next) => {
      const entry: (typeof seen)[number] = { call, ctx: call.ctx, headers: call.ctx.headers };
      seen.push(entry);
      entry.result = await next();
      return entry.result;
    };
    const { run } = setUp(
      {
        join: (first: string, second: string, third: string, ctx: RpcContext) => {
          handlerContexts.push(ctx);
          return `${first}-${second}-${third}`;
        },
      },
      [watch],
    );
    // Named params: the interceptor sees them mapped to IDL order, as the handler gets them.
    const call = run('join', { third: 'c', first: 'a', second: 'b' }, 'call-1');
    expect(call.now).toBe(PENDING);
    expect(await call.later).toEqual({ result: 'a-b-c' });
    expect(call.deliveries()).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0].call.method).toBe('Calc.join');
    expect(seen[0].call.params).toEqual(['a', 'b', 'c']);
    expect(seen[0].ctx).toBe(handlerContexts[0]);
    expect(seen[0].ctx).toMatchObject({ id: 'call-1', method: 'Calc.join' });
    expect(seen[0].headers).toEqual({ 'x-caller': 'test' });
    expect(seen[0].result).toBe('a-b-c');
  });

  it("sees the handler's error, and what it throws instead is what is sent", async () => {
    let seenError: unknown;
    const translate: CallInterceptor = async (_call, next) => {
      try {
        return await next();
      } catch (error) {
        seenError = error;
        throw new RpcError(-1001, 'translated', { from: (error as Error).message });
      }
    };
    const { run } = setUp({ ping: () => Promise.reject(new Error('store down')) }, [translate]);
    expect(await run('ping', []).later).toEqual({ error: { code: -1001, message: 'translated', data: { from: 'store down' } } });
    expect(seenError).toBeInstanceOf(Error);
    expect((seenError as Error).message).toBe('store down');
  });

  it('runs in list order, the first outermost, each around the next', async () => {
    const order: string[] = [];
    const named =
      (name: string): CallInterceptor =>
      async (_call, next) => {
        order.push(`${name} in`);
        const result = await next();
        order.push(`${name} out`);
        return result;
      };
    const { run } = setUp(
      {
        ping: () => {
          order.push('handler');
          return true;
        },
      },
      [named('outer'), named('inner')],
    );
    expect(await run('ping', []).later).toEqual({ result: true });
    expect(order).toEqual(['outer in', 'inner in', 'handler', 'inner out', 'outer out']);
  });

  it('may answer without the handler; what it returns is validated like a result (a plain value at once, a promise later)', async () => {
    const handler = vi.fn(() => 1);
    const { run, logger } = setUp({ add: handler }, [
      (call) => (call.params[0] === 0 ? 'not an int' : call.params[0] === 2 ? Promise.resolve(7) : 42),
    ]);
    expect(run('add', [1, 1]).now).toEqual({ result: 42 });
    const later = run('add', [2, 1]);
    expect(later.now).toBe(PENDING);
    expect(await later.later).toEqual({ result: 7 });
    expect(run('add', [0, 1]).now).toEqual({
      error: { code: ErrorCode.InternalError, message: 'Internal error: invalid result of Calc.add' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/^Calc\.add returned an invalid result: result: /), undefined);
  });

  it('is not reached by params that fail validation', async () => {
    const interceptor = vi.fn((_call: RpcCall, next: () => Promise<unknown>) => next());
    const { run } = setUp({}, [interceptor]);
    const call = run('add', [1, 'two']);
    expect(call.now).toMatchObject({ error: { code: ErrorCode.InvalidParams, message: 'Invalid params: params[1]: expected integer' } });
    expect(interceptor).not.toHaveBeenCalled();
  });

  it('that throws something other than an RpcError gives -32603, logged', async () => {
    const { run, logger } = setUp({}, [
      () => {
        throw new TypeError('interceptor bug');
      },
    ]);
    expect(await run('ping', []).later).toEqual({ error: { code: ErrorCode.InternalError, message: 'Internal error' } });
    expect(logger.error).toHaveBeenCalledWith('Calc.ping failed', expect.objectContaining({ message: 'interceptor bug' }));
  });

  it('gets a rejection from a second next(); the handler runs once', async () => {
    const handler = vi.fn(() => true);
    let second: unknown;
    const { run } = setUp({ ping: handler }, [
      async (_call, next) => {
        const first = await next();
        second = await next().catch((error: unknown) => error);
        return first;
      },
    ]);
    expect(await run('ping', []).later).toEqual({ result: true });
    expect(handler).toHaveBeenCalledTimes(1);
    expect((second as Error).message).toBe('an interceptor of Calc.ping called next() more than once');
  });

  it("is covered by the handler's deadline, which aborts ctx.signal", async () => {
    let signal: AbortSignal | undefined;
    const { run } = setUp(
      {},
      [
        (call) => {
          signal = call.ctx.signal;
          return new Promise(() => {});
        },
      ],
      5,
    );
    const call = run('ping', []);
    expect(await call.later).toEqual({ error: { code: ErrorCode.InternalError, message: 'Internal error' } });
    expect(signal?.aborted).toBe(true);
    expect(call.deliveries()).toBe(1);
  });

  it('passing next() through unchanged around a plain-value (or throwing) handler answers at once, as without interceptors', async () => {
    const { run } = setUp(
      {
        ping: () => true,
        join: () => {
          throw new RpcError(7, 'no');
        },
      },
      [(_call, next) => next(), (_call, next) => next()],
    );
    const passed = run('ping', []);
    expect(passed.now).toEqual({ result: true });
    expect(run('join', ['a', 'b', 'c']).now).toEqual({ error: { code: 7, message: 'no' } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(passed.deliveries()).toBe(0);
    // An interceptor that waits (or wraps next()) makes the call pending, as any asynchronous step.
    const { run: runWaiting } = setUp({ ping: () => true }, [async (_call, next) => next()]);
    const waiting = runWaiting('ping', []);
    expect(waiting.now).toBe(PENDING);
    expect(await waiting.later).toEqual({ result: true });
  });

  it('next(added) copies values onto the context the handler gets, never over its own members', async () => {
    const { run } = setUp({ join: (a: string, b: string, c: string, ctx: RpcContext & { user?: string }) => `${a}${b}${c}${ctx.user}` }, [
      (call, next) => (call.params[0] === 'x' ? next({ method: 'other' }) : next({ user: 'ada' })),
    ]);
    expect(run('join', ['a', 'b', 'c']).now).toEqual({ result: 'abcada' });
    expect(await run('join', ['x', 'b', 'c']).later).toEqual({ error: { code: ErrorCode.InternalError, message: 'Internal error' } });
  });

  it('plugs into the JSON-RPC binding: a notification has no id, a call its own', async () => {
    const ids: unknown[] = [];
    const { methods, failures } = setUp({});
    const calls = createCallPipeline({
      validators,
      validateRequests: true,
      validateResponses: true,
      handlerTimeoutMs: 0,
      failures,
      interceptors: [
        (call, next) => {
          ids.push(call.ctx.id);
          return next();
        },
      ],
    });
    const streams = createStreamCalls({ calls, failures, limits: STREAM_DEFAULTS });
    const binding = createJsonRpcBinding({ idl: calcIdl, methods, calls, failures, maxBatchSize: 100, maxDepth: 128, streams });
    const answer = binding.answerJson(
      [
        { jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 'a' },
        { jsonrpc: '2.0', method: 'Calc.ping' },
      ],
      {},
    );
    // Passed through around plain-value handlers: answered at once, without a promise.
    expect(answer).toEqual([{ jsonrpc: '2.0', result: 3, id: 'a' }]);
    expect(ids).toEqual(['a', undefined]);
  });
});

describe('ctx.paramPath: paths in the style of the call', () => {
  const paths = {
    join: (_first: string, _second: string, _third: string, ctx: RpcContext) =>
      [ctx.paramPath(0), ctx.paramPath('third', 'x', 2, 'a b')].join('|'),
  };

  it('positional params give params[<index>]…, as the server validation does', () => {
    const { run } = setUp(paths);
    expect(run('join', ['a', 'b', 'c']).now).toEqual({ result: 'params[0]|params[2].x[2]["a b"]' });
  });

  it('named params (JSON-RPC objects, the REST binding) give params.<name>…', () => {
    const { run } = setUp(paths);
    expect(run('join', { first: 'a', second: 'b', third: 'c' }).now).toEqual({ result: 'params.first|params.third.x[2]["a b"]' });
  });

  it('a parameter the method does not have throws a RangeError naming the parameters', () => {
    let thrown: unknown;
    const { run } = setUp({
      join: (_first: string, _second: string, _third: string, ctx: RpcContext) => {
        for (const parameter of [3, -1, 'fourth']) {
          try {
            ctx.paramPath(parameter);
          } catch (error) {
            thrown = error;
            if (!(error instanceof RangeError)) return 'not a RangeError';
          }
        }
        return String((thrown as Error).message);
      },
    });
    expect(run('join', ['a', 'b', 'c']).now).toEqual({
      result: 'paramPath: Calc.join has no parameter "fourth" (parameters: first, second, third)',
    });
  });
});
