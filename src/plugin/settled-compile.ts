/**
 * A compile that failed because a file changed while it was being read is run again once the files
 * hold still. An editor or a tool that writes a file in place lets a watching host read it empty or
 * half written; most hosts rebuild again on the write's next change event, but Farm coalesces them
 * and kept the half-written file's errors until the next edit. Only failed compiles are checked: the
 * texts the compiler read (`IdlModuleError.sources`) against the files' contents now, and the
 * files' modification times: a file written moments ago may still be being written (on a busy
 * machine, the time between a writer emptying a file and filling it again can reach the check).
 */
import { statSync } from 'node:fs';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { contentHash, fileContentHash } from './content-hash.js';

/** How often, and how far apart, a compile that read changing files is tried. */
export interface SettleOptions {
  attempts: number;
  pauseMs: number;
  /** A file modified less than this long ago may still be being written: a failure waits until it is this old. */
  quietMs: number;
}

/** What the files read look like now. */
export interface FileProbe {
  /** The content hash of `file` now (`contentHash`), undefined when it cannot be read. */
  hash(file: string): string | undefined;
  /** How long ago `file` was last modified, in milliseconds; undefined when unknown. */
  modifiedMsAgo(file: string): number | undefined;
}

/** The files on disk (each read at most `maxBytes`). */
export function diskProbe(maxBytes: number): FileProbe {
  return {
    hash: (file) => fileContentHash(file, maxBytes),
    modifiedMsAgo(file) {
      try {
        return Date.now() - statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    },
  };
}

const DEFAULT_SETTLE: SettleOptions = { attempts: 4, pauseMs: 25, quietMs: 200 };

/**
 * Runs `compile`; when it throws an `IdlModuleError` and one of the files it read now hashes
 * differently, or was modified less than `quietMs` ago, pauses (until the youngest of those files
 * is `quietMs` old) and runs it again, up to `attempts` runs in all. Any other failure, or one whose
 * files are as read and have held still, is thrown at once.
 */
export async function compileWhenSettled<T>(
  compile: () => Promise<T>,
  files: FileProbe,
  options: SettleOptions = DEFAULT_SETTLE,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await compile();
    } catch (error) {
      if (attempt >= options.attempts || !(error instanceof IdlModuleError)) throw error;
      const pause = settlePause(error, files, options);
      if (pause === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** How long to wait before compiling again, or undefined when the files read are as read and still. */
function settlePause(error: IdlModuleError, files: FileProbe, options: SettleOptions): number | undefined {
  let pause: number | undefined;
  for (const [file, source] of error.sources) {
    if (files.hash(file) !== contentHash(source)) pause = Math.max(pause ?? 0, options.pauseMs);
    const age = files.modifiedMsAgo(file);
    // One millisecond more: a timer may fire up to a millisecond before `Date.now()` says its time
    // has passed, and the file would then look too young once more (one compile more, for nothing).
    if (age !== undefined && age < options.quietMs) pause = Math.max(pause ?? 0, options.quietMs - age + 1, options.pauseMs);
  }
  return pause;
}
