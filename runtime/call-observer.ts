/**
 * The `onCall` hook of `createRpcServer`: one event per call once it is answered, with its duration
 * and outcome, for logs and metrics. It wraps the call pipeline, so it sees every call of both
 * bindings and each batch member, refused params and invalid results included (a stream's when it ends); without the hook
 * the pipeline is used as it is, at no cost.
 */
import type { RequestContext } from './call-context.js';
import { PENDING, type FailureReporter, type JsonRpcId, type Outcome } from './call-outcome.js';
import type { CallPipeline } from './call-pipeline.js';
import type { MethodEntry } from './method-table.js';
import { OpenedStream } from './streams/opened-stream.js';

/** One answered call, as `onCall` gets it. */
export interface CallEvent {
  /** `"<Interface>.<method>"`. */
  method: string;
  /** The JSON-RPC id; `undefined` for a notification, `null` for the REST binding. */
  id: JsonRpcId | undefined;
  /** From the call's arrival at the pipeline (params mapped and validated next) to its outcome, in milliseconds. */
  durationMs: number;
  /** `'result'`, or `'error'` with the error sent (or, for a notification, that would have been). */
  outcome: 'result' | 'error';
  error?: { code: number; message: string };
  /** The request's headers (lower-case names), e.g. for a request id. */
  headers: Record<string, string>;
}

/** The pipeline with `onCall` told of every outcome; a throwing hook is logged, never the call's failure. */
export function observedPipeline(calls: CallPipeline, onCall: (event: CallEvent) => void, failures: FailureReporter): CallPipeline {
  if (typeof onCall !== 'function') throw new Error(`createRpcServer: onCall must be a function, got ${typeof onCall}`);
  const report = (entry: MethodEntry, id: JsonRpcId | undefined, request: RequestContext, start: number, outcome: Outcome) => {
    // A stream is reported once, when it ends (its duration is the stream's).
    if ('result' in outcome && outcome.result instanceof OpenedStream) {
      outcome.result.watch({ end: (ended) => report(entry, id, request, start, ended) });
      return;
    }
    const event: CallEvent = {
      method: entry.name,
      id,
      durationMs: performance.now() - start,
      outcome: 'error' in outcome ? 'error' : 'result',
      headers: request.headers ?? {},
    };
    if ('error' in outcome) event.error = { code: outcome.error.code, message: outcome.error.message };
    try {
      onCall(event);
    } catch (error) {
      failures.log('onCall failed', error);
    }
  };
  return {
    execute(entry, params, id, request, deliver) {
      const start = performance.now();
      const outcome = calls.execute(entry, params, id, request, (settled) => {
        report(entry, id, request, start, settled);
        deliver(settled);
      });
      if (outcome !== PENDING) report(entry, id, request, start, outcome);
      return outcome;
    },
  };
}
