/**
 * Writes generated files beside the user's sources without disturbing watchers needlessly: a file
 * is only written when its content changes, and through a temporary file and a rename, so an
 * editor or `tsc` never sees half of it.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/** Writes `content` to `file` unless it already holds exactly that. Returns whether it wrote. */
export async function writeIfChanged(file: string, content: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === content) return false;
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return true;
}
