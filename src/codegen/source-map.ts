/**
 * Source maps of generated files (https://tc39.es/ecma426/): from the anchors the printer found
 * (source-anchor.ts) to a version 3 map pointing into the IDL files. The plugin serves one with
 * each module (so devtools and stack traces show the IDL) and writes one beside each `.idl.d.ts`
 * (a declaration map, so "Go to Definition" lands in the IDL).
 */
import path from 'node:path';
import { encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import type { IdlPosition } from './source-anchor.js';

/**
 * From this 0-based line and column of the generated file on, the text comes from `source`
 * (until the next mapping); without `source`, from nothing the map knows.
 */
export interface Mapping {
  line: number;
  column: number;
  source?: IdlPosition;
}

/** A source map, as JSON.stringify writes it. */
export interface SourceMapV3 {
  version: 3;
  file: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}

export interface SourceMapOptions {
  /** The generated file, as the map's `file` (a base name: the map lies beside it). */
  file: string;
  /** How the map names a source file (as the compiler names it): relative to the generated file, with `/` separators. */
  sourcePath: (sourceFile: string) => string;
  /** The text of a source file to embed (`sourcesContent`), for consumers that cannot read the disk (browsers). */
  contentOf?: (sourceFile: string) => string | undefined;
}

const NO_SEGMENTS: SourceMapSegment[] = [];

/** The source map of a generated file from its mappings (in order of line, then column). */
export function sourceMapOf(mappings: readonly Mapping[], options: SourceMapOptions): SourceMapV3 {
  const sourceIndex = new Map<string, number>();
  // Lines without a mapping (most of a generated file) share one empty list.
  const lines: SourceMapSegment[][] = [];
  for (const { line, column, source } of mappings) {
    while (lines.length < line) lines.push(NO_SEGMENTS);
    if (lines.length === line) lines.push([]);
    if (!source) {
      lines[line].push([column]);
      continue;
    }
    let index = sourceIndex.get(source.file);
    if (index === undefined) sourceIndex.set(source.file, (index = sourceIndex.size));
    lines[line].push([column, index, source.line - 1, source.column - 1]);
  }
  const sourceFiles = [...sourceIndex.keys()];
  const map: SourceMapV3 = {
    version: 3,
    file: options.file,
    sources: sourceFiles.map(options.sourcePath),
    names: [],
    mappings: encode(lines),
  };
  if (options.contentOf) map.sourcesContent = sourceFiles.map((file) => options.contentOf!(file) ?? null);
  return map;
}

/** `file` relative to `folder`, with `/` separators (how a map names its sources). */
export function relativeSourcePath(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}
