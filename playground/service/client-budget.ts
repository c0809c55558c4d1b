/**
 * How many carts each client may still create: a budget of `max` per client and fixed time window,
 * kept in this process's memory. A client is its address as the server sees it (`ctx.remoteAddress`):
 * an IPv4 address, or the /64 prefix of an IPv6 one (what a single host is usually given, so one
 * host cannot take a fresh budget per address of its prefix).
 */

/** Clients remembered at once; past it, the one whose window started first is forgotten. */
export const MAX_TRACKED_CLIENTS = 10_000;

/** One creation taken from a client's budget, to give back when nothing was created. */
export interface Reservation {
  readonly client: string;
  readonly windowStart: number;
}

interface Window {
  start: number;
  used: number;
}

export class ClientBudget {
  readonly #max: number;
  readonly #windowSeconds: number;
  readonly #now: () => number;
  /** By client, in the order their windows started (a new window moves a client to the end). */
  readonly #windows = new Map<string, Window>();

  /** `now`: Unix seconds. */
  constructor(max: number, windowSeconds: number, now: () => number) {
    this.#max = max;
    this.#windowSeconds = windowSeconds;
    this.#now = now;
  }

  /** Takes one from the client's budget; undefined when it is spent for the current window. */
  take(client: string): Reservation | undefined {
    const window = this.#current(client);
    if (window.used >= this.#max) return undefined;
    window.used++;
    return { client, windowStart: window.start };
  }

  /** Gives a reservation back (nothing was created), unless its window has passed since. */
  giveBack(reservation: Reservation): void {
    const window = this.#windows.get(reservation.client);
    if (window !== undefined && window.start === reservation.windowStart && window.used > 0) window.used--;
  }

  /** Whole seconds until the client's window ends (at least 1). */
  retryAfterSeconds(client: string): number {
    const window = this.#windows.get(client);
    return window === undefined ? 1 : Math.max(1, window.start + this.#windowSeconds - this.#now());
  }

  /** The client's window now: a fresh one when its last one ended (or it has none). */
  #current(client: string): Window {
    const now = this.#now();
    const known = this.#windows.get(client);
    if (known !== undefined && now < known.start + this.#windowSeconds) return known;
    this.#windows.delete(client);
    this.#forgetEnded(now);
    const fresh = { start: now, used: 0 };
    this.#windows.set(client, fresh);
    return fresh;
  }

  /** Drops the windows that ended (the oldest first), and the oldest live one when too many remain. */
  #forgetEnded(now: number): void {
    for (const [client, window] of this.#windows) {
      if (now < window.start + this.#windowSeconds && this.#windows.size < MAX_TRACKED_CLIENTS) break;
      this.#windows.delete(client);
    }
  }
}

/**
 * The client a remote address stands for: an IPv4 address (also written IPv4-mapped, `::ffff:1.2.3.4`)
 * as it is, an IPv6 address by its /64 prefix, `unknown` without an address (a server called in process).
 */
export function clientOf(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined || remoteAddress === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress);
  if (mapped) return mapped[1];
  if (!remoteAddress.includes(':')) return remoteAddress;
  return `${ipv6Groups(remoteAddress).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a zone `%eth0` dropped), as hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('%')[0].toLowerCase().split('::');
  const split = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const front = split(head);
  const back = split(tail);
  const groups = tail === undefined ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return groups.map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16).toString(16) : group));
}
