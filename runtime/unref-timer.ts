/**
 * Starts a timer that does not keep the process alive where the runtime has such timers (Node,
 * Bun, Deno's Node timers). Cloudflare's workerd and browsers hand back a number without `unref`:
 * there the timer is plain, as nothing waits for the event loop to empty.
 */
export function unrefTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(callback, ms);
  (timer as { unref?: () => unknown }).unref?.();
  return timer;
}
