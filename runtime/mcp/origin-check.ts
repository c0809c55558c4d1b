/**
 * Origin validation against DNS rebinding (MCP, Streamable HTTP, "Security Warning"): a web page
 * that gets its own host name resolved to a local server must not reach the server's tools. A
 * request with no `Origin` (agents, command-line clients: browsers send one with every POST), a
 * loopback origin, or an origin the `allowedOrigins` option lists is allowed; any other gets 403.
 *
 * The server's own public origin must be listed: it cannot be read from the request, because in a
 * rebinding attack the `Host` header is the attacker's host name too, equal to the `Origin`'s.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Decides whether a request's `Origin` may reach the binding. */
export class OriginCheck {
  private readonly allowed: ReadonlySet<string>;

  /** `allowedOrigins`: full origins (`https://app.example.com`), compared as the URL parser writes them. */
  constructor(allowedOrigins: readonly string[] = []) {
    this.allowed = new Set(allowedOrigins.map(normalizedOrigin));
  }

  /** Whether a request with these headers (names lower-case) is allowed. */
  allows(headers: Readonly<Record<string, string>> | undefined): boolean {
    const origin = headers?.origin;
    if (origin === undefined) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // `null` (sandboxed pages, file:) and anything else that is no origin
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)) return true;
    return this.allowed.has(url.origin);
  }
}

function normalizedOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    throw new Error(`mcpBinding: allowedOrigins holds ${JSON.stringify(origin)}, which is no origin (e.g. "https://app.example.com")`);
  }
}
