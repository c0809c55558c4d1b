/**
 * The content hash the compile cache keys on. A byte order mark is left out: the compiler drops it,
 * so the texts it reports (and the cache compares) have none.
 */
import { createHash } from 'node:crypto';
import { readRegularFile } from '../read-regular-file.js';

/** SHA-256 of `text` (without a leading byte order mark), hex. */
export function contentHash(text: string): string {
  return createHash('sha256')
    .update(text.startsWith('\uFEFF') ? text.slice(1) : text)
    .digest('hex');
}

/** The content hash of `file` now, or undefined when it cannot be read (at most `maxBytes`). */
export function fileContentHash(file: string, maxBytes: number): string | undefined {
  try {
    return contentHash(readRegularFile(file, maxBytes));
  } catch {
    return undefined;
  }
}
