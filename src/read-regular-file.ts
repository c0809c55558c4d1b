/**
 * The one way this package reads a file a user named (an `.idl` for the plugin or the CLI, an
 * OpenAPI document or a file one of its `$ref`s names): only a regular file, of at most a given
 * size. A device such as `/dev/zero` would grow without bound, a FIFO would block for ever, and a
 * dev server reads files on request, so an unbounded read is a way to make it hold gigabytes.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was not read; each caller words it for its users. */
export type RefusalReason =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'not-regular' }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'unreadable'; detail: string };

/** A file that {@link readRegularFile} did not read. */
export class FileRefusedError extends Error {
  readonly reason: RefusalReason;

  constructor(path: string, reason: RefusalReason) {
    super(`${path}: ${reason.kind}`);
    this.name = 'FileRefusedError';
    this.reason = reason;
  }
}

/**
 * The UTF-8 text of `path`, a regular file of at most `maxBytes` bytes. The file is opened without
 * blocking (so a FIFO cannot hang the read) and checked through the open descriptor (so a file
 * swapped after a check is still checked); the read stops one byte past the limit, since the file
 * may grow after the check.
 *
 * @throws FileRefusedError
 */
export function readRegularFile(path: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason: RefusalReason =
      code === 'ENOENT'
        ? { kind: 'missing' }
        : code === 'EISDIR'
          ? { kind: 'directory' }
          : { kind: 'unreadable', detail: code ?? (error as Error).message };
    throw new FileRefusedError(path, reason);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new FileRefusedError(path, { kind: 'directory' });
    if (!stats.isFile()) throw new FileRefusedError(path, { kind: 'not-regular' });
    if (stats.size > maxBytes) throw new FileRefusedError(path, { kind: 'too-large', bytes: stats.size });
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) throw new FileRefusedError(path, { kind: 'too-large', bytes: length });
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/** The reason in words for a message (`cannot read <path>: <this>`); `tooLarge` words the size limit. */
export function refusalText(reason: RefusalReason, tooLarge: (bytes: number) => string): string {
  switch (reason.kind) {
    case 'missing':
      return 'no such file';
    case 'directory':
      return 'it is a directory';
    case 'not-regular':
      return 'not a regular file (a device, FIFO or socket)';
    case 'too-large':
      return tooLarge(reason.bytes);
    case 'unreadable':
      return reason.detail;
  }
}
