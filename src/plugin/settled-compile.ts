/**
 * A compile that failed because a file changed while it was being read is run again once the files
 * hold still. An editor or a tool that writes a file in place lets a watching host read it empty or
 * half written; most hosts rebuild again on the write's next change event, but Farm coalesces them
 * and kept the half-written file's errors until the next edit. Only failed compiles are checked: the
 * texts the compiler read (`IdlModuleError.sources`) against the files' contents now.
 */
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { contentHash } from './content-hash.js';

/** How often, and how far apart, a compile that read changing files is tried. */
export interface SettleOptions {
  attempts: number;
  pauseMs: number;
}

const DEFAULT_SETTLE: SettleOptions = { attempts: 4, pauseMs: 25 };

/**
 * Runs `compile`; when it throws an `IdlModuleError` and one of the files it read now hashes
 * differently (`currentHash`: undefined when unreadable), pauses and runs it again, up to
 * `attempts` runs in all. Any other failure, or one whose files are as read, is thrown at once.
 */
export async function compileWhenSettled<T>(
  compile: () => Promise<T>,
  currentHash: (file: string) => string | undefined,
  options: SettleOptions = DEFAULT_SETTLE,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await compile();
    } catch (error) {
      if (attempt >= options.attempts || !(error instanceof IdlModuleError) || !changedSinceRead(error, currentHash)) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  }
}

function changedSinceRead(error: IdlModuleError, currentHash: (file: string) => string | undefined): boolean {
  for (const [file, source] of error.sources) if (currentHash(file) !== contentHash(source)) return true;
  return false;
}
