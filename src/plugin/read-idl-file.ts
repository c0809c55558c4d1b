/**
 * Reads an `.idl` file for the plugin through the package's one bounded reader (regular files only,
 * at most `maxIdlBytes`), with messages that name the file and the option.
 */
import { FileRefusedError, readRegularFile } from '../read-regular-file.js';

/**
 * The default of the `maxIdlBytes` option: 1 MiB, far above any hand-written IDL (the checkout
 * example is under 3 KB). Compiling costs about 100 bytes of heap per byte of IDL, so 1 MiB keeps a
 * compile near 100 MB.
 */
export const DEFAULT_MAX_IDL_BYTES = 1024 * 1024;

/** An `.idl` file the plugin refuses to read; the message names the file and says why. */
export class IdlFileReadError extends Error {
  readonly file: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'IdlFileReadError';
    this.file = file;
  }
}

/** The text of `file`, a regular file of at most `maxBytes` bytes; {@link IdlFileReadError} otherwise. */
export async function readIdlFile(file: string, maxBytes: number): Promise<string> {
  try {
    return readRegularFile(file, maxBytes);
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    const { reason } = error;
    if (reason.kind === 'not-regular') throw new IdlFileReadError(file, 'not a regular file, refused');
    if (reason.kind === 'too-large') {
      throw new IdlFileReadError(
        file,
        `${reason.bytes} bytes, more than the ${maxBytes} bytes an .idl may have (option maxIdlBytes), refused`,
      );
    }
    throw new IdlFileReadError(
      file,
      reason.kind === 'missing' ? 'no such file' : reason.kind === 'directory' ? 'it is a directory' : reason.detail,
    );
  }
}
