/**
 * SSE event ids: which ids the server sends and accepts back in `Last-Event-ID`, and the default
 * ids (ordinals), counted on from a decimal `Last-Event-ID` so a resumed stream goes on numbering.
 */

/** The longest event id (UTF-16 units): an id travels back as a header, and a cursor fits in far less. */
export const MAX_EVENT_ID_LENGTH = 1024;

/**
 * Whether `id` can be an SSE event id that comes back intact as `Last-Event-ID`: a non-empty
 * string of at most MAX_EVENT_ID_LENGTH characters without control characters (CR or LF would end
 * the `id:` line, NUL makes browsers ignore the id, and HTTP header values hold no others).
 */
export function isUsableEventId(id: unknown): id is string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_EVENT_ID_LENGTH && !/[\u0000-\u001f\u007f]/.test(id);
}

/**
 * The request's `Last-Event-ID` as the handler gets it (`ctx.lastEventId`): the header when it is
 * a usable event id, else undefined (an id the server could never have sent is no place to resume
 * from: the stream starts over, as without the header).
 */
export function lastEventIdOf(headers: Record<string, string> | undefined): string | undefined {
  const header = headers?.['last-event-id'];
  return isUsableEventId(header) ? header : undefined;
}

const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/**
 * The ordinal the default ids count on from: a decimal `Last-Event-ID` (a default id the server
 * sent), else 0, so the first item is "1".
 */
export function firstOrdinalAfter(lastEventId: string | undefined): number {
  if (lastEventId === undefined || !DECIMAL.test(lastEventId)) return 0;
  const ordinal = Number(lastEventId);
  return Number.isSafeInteger(ordinal) ? ordinal : 0;
}
