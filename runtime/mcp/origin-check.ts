/**
 * Origin validation against DNS rebinding (MCP, Streamable HTTP, "Security Warning"): a web page
 * that gets its own host name resolved to a local server must not reach the server's tools. A
 * request with no `Origin` (agents, command-line clients), a loopback origin, or the origin of the
 * server's own host (its `Host` header) is allowed; so are the origins the `allowedOrigins` option
 * lists; any other gets 403.
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
    if (LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.')) return true;
    if (this.allowed.has(url.origin)) return true;
    const host = headers?.host;
    return host !== undefined && url.host === host.toLowerCase();
  }
}

function normalizedOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    throw new Error(`mcpBinding: allowedOrigins holds ${JSON.stringify(origin)}, which is no origin (e.g. "https://app.example.com")`);
  }
}
