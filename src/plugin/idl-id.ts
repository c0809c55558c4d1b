/**
 * Which module ids are `.idl` modules. Bundlers and Vite add queries to ids (`/src/x.idl?import`);
 * only the path before the query decides, so `/.env.local?import&x.idl` is not an `.idl` module
 * (matching `.idl` inside the query let any file on disk be read through the plugin). Vite's own
 * `?raw` and `?url` imports (`import source from './checkout.idl?raw'`: the file's text) are left
 * to Vite.
 */

/** Matches ids whose path, before any query, ends in `.idl`, unless the query asks for `raw` or `url`. */
export const IDL_ID_FILTER = /^[^?]*\.idl(?:\?(?!(?:.*&)?(?:raw|url)(?:[&=]|$)).*)?$/;

/** Whether a module id is an `.idl` module (generated code). */
export function isIdlId(id: string | undefined): boolean {
  return id !== undefined && IDL_ID_FILTER.test(id);
}

/** `/src/checkout.idl?import` -> `/src/checkout.idl`. */
export function idlFileOfId(id: string): string {
  const query = id.indexOf('?');
  return query === -1 ? id : id.slice(0, query);
}
