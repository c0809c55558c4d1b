import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LockFileHeldError, takeLockFile } from './lock-file.js';

/** The lock file in a data folder: the id of the process that has the folder open. */
export const lockFileName = 'owner.lock';

/** Another live process has the data folder open. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `The playground data folder ${folder} is in use by process ${pid} (another \`npm run playground\` or \`npm run playground:server\`?). ` +
        'An embedded PGlite database can be open in one process only: stop that process, or give this one its own folder with PLAYGROUND_DATA_DIR, ' +
        'or run both on one PostgreSQL server with DATABASE_URL. ' +
        `If no such process runs (its id was reused), delete ${path.join(folder, lockFileName)}.`,
    );
    this.name = 'DataFolderInUseError';
  }
}

/**
 * Takes the data folder for this process (creating it), or throws DataFolderInUseError when a
 * live process holds it. A lock left by a process that died (SIGKILL, a crash) is taken over; of
 * processes that start together, exactly one gets the folder (see lock-file.ts).
 * Returns the function that releases it; it is also released when this process exits normally.
 */
export function lockDataFolder(folder: string): () => void {
  mkdirSync(folder, { recursive: true });
  let releaseLockFile: () => void;
  try {
    releaseLockFile = takeLockFile(path.join(folder, lockFileName));
  } catch (error) {
    if (error instanceof LockFileHeldError) throw new DataFolderInUseError(folder, error.pid);
    throw error;
  }
  const release = () => {
    releaseLockFile();
    process.off('exit', release);
  };
  process.on('exit', release);
  return release;
}
