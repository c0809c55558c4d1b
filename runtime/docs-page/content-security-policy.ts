/**
 * The Content-Security-Policy of the page and of every file it serves: scripts only from files of
 * the same origin (no inline script, no eval), requests only to the same origin, nothing framed,
 * no form posted anywhere. The viewer sets element styles from script (allowed), and its images
 * are `data:` URLs.
 */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every answer of the page carries. */
export function docsPageHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': DOCS_PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
}
