/**
 * The files written beside an `.idl` for editors and `tsc`: `<file>.idl.d.ts` and its declaration
 * map `<file>.idl.d.ts.map` (so "Go to Definition" lands in the IDL). Shared by the plugin and
 * `idlrpc -dts`; light, like idl-module-error.ts, so the plugin can load it without the compiler.
 */
import path from 'node:path';

/** The path of the declaration file written beside an `.idl` file. */
export function dtsFileOf(idlFile: string): string {
  return `${idlFile}.d.ts`;
}

/** The path of the declaration map written beside the declaration file. */
export function dtsMapFileOf(idlFile: string): string {
  return `${dtsFileOf(idlFile)}.map`;
}

/** The declarations of a compiled `.idl`, and their map (JSON). */
export interface DeclarationOutput {
  dts: string;
  dtsMap: string;
}

/**
 * The files to write for `idlFile`, path and content: the `.d.ts`, and with `map` its declaration
 * map, linked from the `.d.ts` by a `sourceMappingURL` comment.
 */
export function declarationFiles(idlFile: string, output: DeclarationOutput, map: boolean): [file: string, text: string][] {
  if (!map) return [[dtsFileOf(idlFile), output.dts]];
  const mapFile = dtsMapFileOf(idlFile);
  return [
    [dtsFileOf(idlFile), `${output.dts}//# sourceMappingURL=${encodeURI(path.basename(mapFile))}\n`],
    [mapFile, output.dtsMap],
  ];
}
