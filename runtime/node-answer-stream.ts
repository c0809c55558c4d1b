/**
 * Writes a stream answer (a stream method's text/event-stream) to a Node response as it is made:
 * headers at once, each chunk as soon as the core gives it, the next chunk asked for only once the
 * socket has taken the last one (a slow reader holds the handler, the server never buffers for it),
 * and `cancel()` when the client goes away before the end.
 */
import type { ServerResponse } from 'node:http';
import type { AnswerStream, HttpAnswer } from './http-answer.js';

/** Writes `answer` (whose `stream` is `stream`) to `res`; never throws, never rejects. */
export function writeAnswerStream(res: ServerResponse, answer: HttpAnswer, stream: AnswerStream): void {
  let ended = false;
  // 'close' comes when the connection goes, and also after a complete answer: only the first means the client left.
  res.once('close', () => {
    if (!ended) stream.cancel();
  });
  const headers: Record<string, string> = {};
  for (const name of Object.keys(answer.headers)) if (name !== 'content-length') headers[name] = answer.headers[name];
  try {
    res.writeHead(answer.status, headers);
    // The client learns at once that the stream is open, before the first item is ready.
    res.flushHeaders();
  } catch {
    stream.cancel();
    res.destroy();
    return;
  }
  const pump = (): void => {
    stream.next().then(
      (chunk) => {
        if (res.destroyed) return;
        if (chunk === undefined) {
          ended = true;
          res.end();
        } else if (res.write(chunk)) {
          pump();
        } else {
          res.once('drain', pump);
        }
      },
      () => {
        // The core never rejects; should it, the answer cannot be finished.
        stream.cancel();
        res.destroy();
      },
    );
  };
  pump();
}
