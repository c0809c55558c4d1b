/**
 * The calls a piece of generated code made to the state its module shares (the names it took, what
 * it declared, what it read of other types), recorded while the piece was made. Reused in a later
 * generation, the piece is made again only when one of those calls, made again in the same order,
 * answers otherwise (emit-problem-walkers.ts, emit-serializers.ts): the calls' side effects then
 * happen as a generation from scratch would have them.
 */

/** One call, with what it answered. */
export interface RecordedCall<Kind extends string, Argument> {
  kind: Kind;
  argument: Argument;
  answer: unknown;
}

/** Records the outermost shared calls made while `record` runs (the calls they make in turn are theirs). */
export class CallRecorder<Kind extends string, Argument> {
  private recording: RecordedCall<Kind, Argument>[] | undefined;
  private depth = 0;

  /** `compute()`; while recording, and when no other shared call is under way, written down. */
  shared<T>(kind: Kind, argument: Argument, compute: () => T): T {
    if (this.recording === undefined || this.depth > 0) return compute();
    this.depth++;
    try {
      const answer = compute();
      this.recording.push({ kind, argument, answer });
      return answer;
    } finally {
      this.depth--;
    }
  }

  /** `make()`, with the shared calls it made. */
  record<T>(make: () => T): { value: T; calls: RecordedCall<Kind, Argument>[] } {
    const calls: RecordedCall<Kind, Argument>[] = [];
    this.recording = calls;
    try {
      return { value: make(), calls };
    } finally {
      this.recording = undefined;
    }
  }
}
