/**
 * The file host of the CLI and the plugin: imported files are read from disk through the package's
 * one bounded reader (regular files only, at most `maxBytes`), and one file reached by two paths is
 * the same file (its real path).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { FileRefusedError, readRegularFile, refusalText } from '../read-regular-file.js';
import type { IdlFileHost } from './program.js';

/** The default size limit of an imported file: the plugin's `maxIdlBytes` default. */
export const DEFAULT_MAX_IMPORTED_BYTES = 1024 * 1024;

/** A host reading files relative to `cwd` (names as the loader builds them may be relative). */
export function nodeFileHost(options: { cwd?: string | undefined; maxBytes?: number | undefined } = {}): IdlFileHost {
  const cwd = options.cwd ?? process.cwd();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_IMPORTED_BYTES;
  return {
    readFile(fileName) {
      try {
        return readRegularFile(path.resolve(cwd, fileName), maxBytes);
      } catch (error) {
        if (!(error instanceof FileRefusedError)) throw error;
        throw new Error(refusalText(error.reason, (bytes) => `${bytes} bytes, more than the ${maxBytes} bytes an imported file may have`));
      }
    },
    identity(fileName) {
      const absolute = path.resolve(cwd, fileName);
      try {
        return realpathSync(absolute);
      } catch {
        return absolute;
      }
    },
  };
}
