/**
 * Which request Content-Types carry a call. Only JSON ones: a page on another site can POST
 * `text/plain`, `application/x-www-form-urlencoded` or `multipart/form-data` (a form, or `fetch` in
 * `no-cors` mode) without asking, and a `Blob` or `ArrayBuffer` body without a type sends no
 * Content-Type at all. Any other type makes the browser ask the server first (a CORS preflight),
 * which this server never grants, so requiring JSON keeps foreign pages from running calls.
 */

/** The types accepted, besides `application/<anything>+json`. */
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);
const STRUCTURED_JSON = /^application\/[!#$%&'*.^_`|~0-9a-z-]+\+json$/;

/**
 * Whether a Content-Type header names JSON: `application/json`, `application/json-rpc`,
 * `application/jsonrequest` or `application/<name>+json`, in any case, with any parameters
 * (`; charset=utf-8`). A missing header is not JSON.
 */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  if (contentType === 'application/json') return true; // what nearly every client sends
  if (typeof contentType !== 'string') return false;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return JSON_MEDIA_TYPES.has(essence) || STRUCTURED_JSON.test(essence);
}
