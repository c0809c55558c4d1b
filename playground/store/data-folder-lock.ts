import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

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

/** Whether a process with this id runs (one we may not signal runs too; a zombie, killed but not yet reaped, does not). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: the state follows the command name in parentheses; Z is a zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): the signal said it runs
  }
}

/** The process id a lock file names, or undefined when it is unreadable (a crash while writing it). */
function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data folder for this process (creating it), or throws DataFolderInUseError when a
 * live process holds it. A lock left by a process that died (SIGKILL, a crash) is taken over.
 * Returns the function that releases it; it is also released when this process exits normally.
 */
export function lockDataFolder(folder: string): () => void {
  mkdirSync(folder, { recursive: true });
  const lockFile = path.join(folder, lockFileName);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(lockFile);
      if (holder !== undefined && isRunning(holder)) throw new DataFolderInUseError(folder, holder);
      // Stale (its process is gone): take it over, once; a second miss means another process just took it.
      if (attempt > 0) throw new Error(`Could not take ${lockFile}: another process is taking it at the same time`);
      rmSync(lockFile, { force: true });
    }
  }
  const release = () => {
    if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return release;
}
