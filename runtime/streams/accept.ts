/**
 * Content negotiation for stream methods (RFC 9110, section 12.5.1): a stream is answered as
 * `text/event-stream`, which a request's `Accept` header may allow or exclude.
 */

const EVENT_STREAM = 'text/event-stream';

/**
 * Whether an `Accept` header allows `text/event-stream`: no header (or an empty one) allows
 * anything; otherwise the most specific range that matches (`text/event-stream`, then `text/*`,
 * then `*\/*`) decides, and allows it when its weight `q` is above 0. Ranges that cannot be read
 * match nothing.
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let bestSpecificity = -1;
  let bestWeight = 0;
  for (const range of accept.split(',')) {
    const [mediaRange, ...parameters] = range.split(';');
    const specificity = specificityOf(mediaRange.trim().toLowerCase());
    if (specificity <= bestSpecificity) continue;
    bestSpecificity = specificity;
    bestWeight = weightOf(parameters);
  }
  return bestWeight > 0;
}

/** 2 for `text/event-stream`, 1 for `text/*`, 0 for `*\/*`, -1 for a range that does not match it. */
function specificityOf(mediaRange: string): number {
  if (mediaRange === EVENT_STREAM) return 2;
  if (mediaRange === 'text/*') return 1;
  if (mediaRange === '*/*') return 0;
  return -1;
}

/** The `q` parameter of a range (1 when absent; 0 when unreadable, so a garbled weight never allows). */
function weightOf(parameters: readonly string[]): number {
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const text = value.trim();
    if (!/^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(text)) return 0;
    return Number(text);
  }
  return 1;
}
