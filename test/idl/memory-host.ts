/**
 * IDL files in memory for the compiler's imports (`compileIdl(text, name, { host })`): tests of
 * several files need no folder on disk.
 */
import path from 'node:path';
import type { IdlFileHost } from '../../src/idl/program.js';

/** Files in memory, by name; reading any other name fails as a missing file does. */
export function memoryHost(files: Record<string, string>): IdlFileHost {
  return {
    readFile(fileName) {
      const text = files[path.normalize(fileName)];
      if (text === undefined) throw new Error('no such file');
      return text;
    },
  };
}
