/**
 * What the compile cache's keys say about the compiler that made an entry. A published package
 * changes only with its version. A working copy of this repository (a contributor's, or a
 * linked one) changes with every edit of the compiler, under the same version: there the newest
 * modification time of the compiler's files joins the version, so an edit of the generator is never
 * answered with code the previous generator made.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ownManifest, ownPackageRoot } from '../own-package.js';

/** In a working copy, the newest modification time of its compiler's files (looked up once); '' when installed. */
let workingCopyStamp: string | undefined;

/** The version, and in a working copy the newest modification time of the compiler's files. */
export function compilerIdentity(): string {
  if (workingCopyStamp === undefined) {
    const root = ownPackageRoot();
    workingCopyStamp = root.split(path.sep).includes('node_modules') ? '' : `+${newestModification(compilerFolders(root))}`;
  }
  return `${ownManifest().version}${workingCopyStamp}`;
}

/**
 * The folders of a working copy that hold the compiler: its sources (`src/`, `runtime/`), which
 * the plugin runs from in tests, and the built plugin (dist/src/plugin/, whose bundles hold the
 * compiler and every module it imports; `npm run build` rewrites them all). One stamp for both, so
 * the two share cache entries. Not the rest of dist/: its 750 files took 6 ms of every build.
 */
export function compilerFolders(root: string): string[] {
  return [path.join(root, 'src'), path.join(root, 'runtime'), path.join(root, 'dist', 'src', 'plugin')];
}

/** The newest modification time (whole milliseconds) of the files in `folders` and below; 0 for none. */
export function newestModification(folders: readonly string[]): number {
  let newest = 0;
  const walk = (folder: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // a folder a working copy lacks
    }
    for (const entry of entries) {
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) newest = Math.max(newest, statSync(child).mtimeMs);
    }
  };
  for (const folder of folders) walk(folder);
  return Math.floor(newest);
}
