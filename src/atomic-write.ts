/**
 * Writing files so that nobody ever sees half of one: a failed command leaves no partial output,
 * and an editor or `tsc` never reads a half-written `.idl.d.ts`. Everything is written to a
 * temporary path next to the target first, then renamed into place (a rename within one directory
 * is atomic on POSIX file systems and on NTFS). Used by the CLI and the plugin alike.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';

function temporaryPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Writes one file atomically: readers see the old content or the new one, never a mix. Creates
 * missing parent directories and keeps the permissions of a file it replaces.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryPath(path);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    const mode = await existingMode(path);
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes `content` to `file` atomically unless the file already holds exactly that, so watchers
 * (an editor, `tsc --watch`, a bundler) are not woken for nothing. Returns whether it wrote.
 */
export async function writeIfChanged(file: string, content: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === content) return false;
  await writeFileAtomic(file, content);
  return true;
}

export interface WriteFilesOptions {
  /**
   * `merge` (default): the files are put into `dir`; other files already there stay.
   * `replace`: `dir` afterwards holds exactly these files (the old directory is swapped out).
   */
  mode?: 'merge' | 'replace';
}

/**
 * Writes a set of files (relative paths with `/`) under `dir`. All of them are first written to a
 * staging directory beside `dir`; only when every write succeeded are they moved into place, so a
 * failure while writing leaves `dir` untouched. In `replace` mode the whole directory is swapped
 * with two renames.
 */
export async function writeFilesAtomic(
  dir: string,
  files: ReadonlyMap<string, string | Uint8Array> | Readonly<Record<string, string | Uint8Array>>,
  options: WriteFilesOptions = {},
): Promise<void> {
  const target = resolve(dir);
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  for (const [relativePath] of entries) {
    const full = resolve(target, relativePath);
    if (!full.startsWith(target + sep)) throw new Error(`refusing to write outside ${dir}: ${relativePath}`);
  }
  await mkdir(dirname(target), { recursive: true });
  const staging = temporaryPath(target);
  try {
    for (const [relativePath, data] of entries) {
      const path = resolve(staging, relativePath);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    }
    if (options.mode === 'replace') {
      const previous = temporaryPath(target);
      const hadPrevious = await rename(target, previous).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
      try {
        await rename(staging, target);
      } catch (error) {
        if (hadPrevious) await rename(previous, target);
        throw error;
      }
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
    } else {
      await mkdir(target, { recursive: true });
      for (const [relativePath] of entries) {
        const destination = resolve(target, relativePath);
        await mkdir(dirname(destination), { recursive: true });
        await rename(resolve(staging, relativePath), destination);
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
