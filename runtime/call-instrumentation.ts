/**
 * The `instrumentation` option of `createRpcServer`: a seam for tracing (the OpenTelemetry adapter,
 * runtime/adapters/opentelemetry.ts, is one). Each call is started before its params are mapped,
 * runs inside `run` (so the tracer's context is active while the handler runs), and is ended with
 * its outcome; each batch is started before its members, which start inside its `run`, so their
 * spans are its children. Without the option nothing of this runs.
 */
import type { RequestContext } from './call-context.js';
import { PENDING, type FailureReporter, type JsonRpcId, type Outcome } from './call-outcome.js';
import type { CallPipeline } from './call-pipeline.js';
import { OpenedStream } from './streams/opened-stream.js';

/** What an instrumentation learns of a call as it starts. */
export interface InstrumentedCallStart {
  /** `"<Interface>.<method>"`. */
  method: string;
  /** The JSON-RPC id; `undefined` for a notification, `null` for the REST binding. */
  id: JsonRpcId | undefined;
  request: RequestContext;
}

/** A started call or batch: `run` runs its work inside the tracer's context; `end` closes it once. */
export interface InstrumentedScope {
  run<T>(work: () => T): T;
}

export interface InstrumentedCall extends InstrumentedScope {
  /**
   * The call's outcome: the result, or the error sent. A stream method's call ends when its stream
   * does (its end, a reconnect message, the client gone: no error; or the error sent).
   */
  end(outcome: { error?: { code: number; message: string } }): void;
  /**
   * A stream method's item was written (`index` counts from 0). Optional. The handler's work for
   * each item runs inside the call's `run`.
   */
  item?(index: number): void;
}

export interface InstrumentedBatch extends InstrumentedScope {
  end(): void;
}

export interface CallInstrumentation {
  startCall(call: InstrumentedCallStart): InstrumentedCall;
  /** A JSON-RPC batch of `size` messages; its members' calls start inside its `run`. Optional. */
  startBatch?(batch: { size: number; request: RequestContext }): InstrumentedBatch;
}

/** The pipeline with every call started, run and ended through `instrumentation`; its failures are logged, never the call's. */
export function instrumentedPipeline(calls: CallPipeline, instrumentation: CallInstrumentation, failures: FailureReporter): CallPipeline {
  if (typeof instrumentation?.startCall !== 'function') {
    throw new Error('createRpcServer: instrumentation must have a startCall(call) method');
  }
  const end = (call: InstrumentedCall, outcome: Outcome) => {
    // A stream's call lasts as long as the stream: its items are pulled inside it, and it ends with it.
    if ('result' in outcome && outcome.result instanceof OpenedStream) {
      outcome.result.watch({
        run: (work) => call.run(work),
        item: call.item === undefined ? undefined : (index) => call.item!(index),
        end: (ended) => end(call, ended),
      });
      return;
    }
    try {
      call.end('error' in outcome ? { error: outcome.error } : {});
    } catch (error) {
      failures.log('instrumentation failed to end a call', error);
    }
  };
  return {
    execute(entry, params, id, request, deliver) {
      let call: InstrumentedCall;
      try {
        call = instrumentation.startCall({ method: entry.name, id, request });
      } catch (error) {
        failures.log('instrumentation failed to start a call', error);
        return calls.execute(entry, params, id, request, deliver);
      }
      const outcome = call.run(() =>
        calls.execute(entry, params, id, request, (settled) => {
          end(call, settled);
          deliver(settled);
        }),
      );
      if (outcome !== PENDING) end(call, outcome);
      return outcome;
    },
  };
}
