/**
 * Large `.idl` modules in parts. A bundler parses each module on one thread; the module of a large
 * IDL (25 times its text: a 10,000-line file gives 4.8 MB) parsed as one held a build on one core
 * while the others waited. Above {@link MIN_IDL_BYTES_IN_PARTS} the plugin hands such a module over
 * as an index re-exporting three part modules (types, client, server, the parts of the CLI layout),
 * whose ids are the `.idl`'s own with a query: `/src/big.idl?idlrpc-part=types`. What the app
 * imports is the same: the index's exports are the parts' exports, those of the module in one piece.
 *
 * The hosts resolve a part's specifier themselves (`./big.idl?idlrpc-part=types` from the index: the
 * file beside it, the query kept in the id) and hand the id to the plugin's load hook. Only hosts
 * whose bundler parses modules in parallel and was measured faster with parts get them (see
 * `HOSTS_WITH_PARTS`); the others, and Vite's dev server (whose hot updates replace the module
 * whole), get the module in one piece. docs/plugin.md, "Large modules in parts".
 */
import path from 'node:path';

/** The query parameter naming a part. */
const PART_PARAMETER = 'idlrpc-part';

/** The IDL text (bytes of the module's own file) from which its module is handed over in parts. */
export const MIN_IDL_BYTES_IN_PARTS = 80 * 1024;

/** Whether the module of an `.idl` whose text is `idlText` is generated in parts, for a host that takes them. */
export function generatesInParts(hostTakesParts: boolean, idlText: string): boolean {
  return hostTakesParts && idlText.length >= MIN_IDL_BYTES_IN_PARTS;
}

/** The specifier the index of `file`'s module imports `part` by: `./big.idl?idlrpc-part=types`. */
export function partSpecifier(file: string, part: string): string {
  return `./${path.basename(file)}?${PART_PARAMETER}=${part}`;
}

/** The part a module id names (`/src/big.idl?idlrpc-part=types` -> `types`), or undefined for a whole module. */
export function partOfId(id: string): string | undefined {
  const query = id.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(id.slice(query + 1)).get(PART_PARAMETER) ?? undefined;
}
