/**
 * A lock file that names the process holding it, taken atomically by any number of processes at
 * once, and taken over when the process it names is gone.
 *
 * Node has no `flock`, so the lock is a file name, and two rules keep one holder at a time without
 * depending on timing:
 *
 * - Taking it is one `link(2)` of a complete file (written under a name of its own) to the lock
 *   name: it fails with EEXIST when the name exists, so a lock file is never seen half-written, and
 *   of processes that take it together exactly one succeeds.
 * - A stale lock (its process is gone, or it is empty or unreadable: an older version's crash
 *   while writing it) is removed only by the process holding the takeover claim on its inode,
 *   `<lock>.<inode>.takeover`, itself a lock file taken by these same rules. Processes that judged
 *   the same stale lock race for one claim; the winner checks that the lock name still is that
 *   inode, still stale, before it unlinks it, and nobody else can unlink that inode meanwhile. (A
 *   rename of the stale lock away and back is not enough: while it is away, a third process can
 *   take the free name, and the one whose fresh lock was renamed away by mistake holds it too.)
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';

/** A live process holds the lock file (or is taking over its stale lock). */
export class LockFileHeldError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`${lockFile} is held by process ${pid}`);
    this.name = 'LockFileHeldError';
  }
}

/** Abandoned takeovers nest claims on claims; past this many levels the folder wants a look by a person. */
const maxTakeoverDepth = 4;

/** The claim a process holds while it removes the stale lock file `lockFile` whose inode is `inode`. */
export function takeoverClaimName(lockFile: string, inode: bigint): string {
  return `${lockFile}.${inode}.takeover`;
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

/** What a lock file is now: its inode, its text, and the process it names (undefined when empty or unreadable). */
interface LockFileState {
  inode: bigint;
  text: string;
  pid: number | undefined;
}

function parsePid(text: string): number | undefined {
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Opening a symbolic link fails (ELOOP) instead of following it: a lock file is never one. */
const readNoFollow = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** The state of `file`, read through one descriptor so that inode and content belong together; undefined when there is no such file. */
function inspect(file: string): LockFileState | undefined {
  let fd: number;
  try {
    fd = openSync(file, readNoFollow);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // Not written by this code (by hand, or by a tool): names no process, so it is stale. Were it
    // followed, a dangling link would look absent to the reader and present to link(2), forever.
    if (code === 'ELOOP') return { inode: lstatSync(file, { bigint: true }).ino, text: '', pid: undefined };
    throw error;
  }
  try {
    const { ino } = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8');
    return { inode: ino, text, pid: parsePid(text) };
  } finally {
    closeSync(fd);
  }
}

function isHeld(state: LockFileState): state is LockFileState & { pid: number } {
  return state.pid !== undefined && isRunning(state.pid);
}

/**
 * Creates `file` naming this process, complete from its first instant; returns its text, or
 * undefined when `file` exists. The process id is on the first line; a random second line tells
 * this lock file apart from any other of this process (inode numbers are reused).
 */
function createNamingThisProcess(file: string): string | undefined {
  const nonce = randomBytes(8).toString('hex');
  const text = `${process.pid}\n${nonce}\n`;
  const temporary = `${file}.${process.pid}.${nonce}.tmp`;
  const fd = openSync(temporary, 'wx');
  try {
    writeSync(fd, text);
    linkSync(temporary, file);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  } finally {
    closeSync(fd);
    rmSync(temporary, { force: true });
  }
}

/** Removes `file` when it still is the one this process created (with text `text`): never a lock taken since. */
function removeIfOurs(file: string, text: string): void {
  // It names this live process, so no takeover can remove it between this check and the unlink.
  if (inspect(file)?.text === text) rmSync(file, { force: true });
}

/**
 * Removes the stale lock file `file` (inode `inode`) if it still is that inode and still stale,
 * under the takeover claim on that inode; throws LockFileHeldError when a live process holds the claim.
 */
function removeStale(file: string, inode: bigint, depth: number): void {
  if (depth >= maxTakeoverDepth) {
    throw new Error(`Could not take ${file}: takeovers of it were abandoned ${depth} times over; delete the ${file}.*.takeover files`);
  }
  const claim = takeoverClaimName(file, inode);
  const claimText = take(claim, depth + 1);
  try {
    const now = inspect(file);
    // Only the holder of this claim unlinks this inode, and its process is gone: if `file` still is it, it stays it until the unlink.
    if (now?.inode === inode && !isHeld(now)) unlinkSync(file);
  } finally {
    removeIfOurs(claim, claimText);
  }
}

/** Takes `file` for this process; returns the text of the lock file it created. */
function take(file: string, depth: number): string {
  for (;;) {
    const created = createNamingThisProcess(file);
    if (created !== undefined) return created;
    const state = inspect(file);
    if (state === undefined) continue; // released in between: try again
    if (isHeld(state)) throw new LockFileHeldError(file, state.pid);
    removeStale(file, state.inode, depth);
  }
}

/**
 * Takes the lock file `lockFile` for this process, or throws LockFileHeldError naming the live
 * process that holds it (this one included). A lock whose process is gone is taken over, also
 * when many processes try at once: exactly one of them gets it. Returns the function that releases
 * it, which removes the file only while it still is this process's lock.
 */
export function takeLockFile(lockFile: string): () => void {
  const text = take(lockFile, 0);
  return () => removeIfOurs(lockFile, text);
}
