/**
 * Reads an `.idl` file for the plugin, refusing what no IDL is: anything but a regular file (a
 * device such as `/dev/zero`, a FIFO, a directory) and files larger than a cap. A dev server reads
 * files on request, so an unbounded read is a way to make it hold gigabytes or block for ever.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The default of the `maxIdlBytes` option: 1 MiB, far above any hand-written IDL (the checkout
 * example is under 3 KB). Compiling costs about 100 bytes of heap per byte of IDL, so 1 MiB keeps a
 * compile near 100 MB.
 */
export const DEFAULT_MAX_IDL_BYTES = 1024 * 1024;

const READ_CHUNK_BYTES = 64 * 1024;

/** An `.idl` file the plugin refuses to read; the message names the file and says why. */
export class IdlFileReadError extends Error {
  readonly file: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'IdlFileReadError';
    this.file = file;
  }
}

/**
 * The text of `file`, a regular file of at most `maxBytes` bytes. Throws {@link IdlFileReadError}
 * otherwise (and the file system's own error when it cannot be opened).
 */
export async function readIdlFile(file: string, maxBytes: number): Promise<string> {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever. It changes
  // nothing for regular files. (Windows has no such flag and no FIFOs to open this way.)
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new IdlFileReadError(file, 'not a regular file, refused');
    if (stats.size > maxBytes) throw tooLarge(file, stats.size, maxBytes);
    // Read until the end, not just `size` bytes: the file may have grown since `stat`.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > maxBytes) throw tooLarge(file, length, maxBytes);
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

function tooLarge(file: string, size: number, maxBytes: number): IdlFileReadError {
  return new IdlFileReadError(file, `${size} bytes, more than the ${maxBytes} bytes an .idl may have (option maxIdlBytes), refused`);
}
