/**
 * A stream answer (a stream method's text/event-stream) as the body of a web-standard `Response`:
 * a `ReadableStream` that asks the core for the next chunk only when the runtime reads one (its
 * queue holds nothing ahead, so a slow reader holds the handler, nothing buffers for it), and
 * cancels the call when the runtime cancels the body or the request is aborted (the client left).
 */
import type { AnswerStream, HttpAnswer } from './http-answer.js';

const encoder = new TextEncoder();

/** The `Response` for `answer`, whose `stream` is `stream`. */
export function answerStreamResponse(answer: HttpAnswer, stream: AnswerStream, request: Request): Response {
  const signal = request.signal;
  const onAbort = () => stream.cancel();
  if (signal.aborted) stream.cancel();
  else signal.addEventListener('abort', onAbort, { once: true });
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: string | undefined;
        try {
          chunk = await stream.next();
        } catch (error) {
          // The core never rejects; should it, the answer cannot be finished.
          stream.cancel();
          signal.removeEventListener('abort', onAbort);
          controller.error(error);
          return;
        }
        if (chunk === undefined) {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        } else {
          controller.enqueue(encoder.encode(chunk));
        }
      },
      cancel() {
        signal.removeEventListener('abort', onAbort);
        stream.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = {};
  for (const name of Object.keys(answer.headers)) if (name !== 'content-length') headers[name] = answer.headers[name];
  return new Response(body, { status: answer.status, headers });
}
