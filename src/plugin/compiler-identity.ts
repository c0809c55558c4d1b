/**
 * What the compile cache's keys say about the compiler that made an entry. A published package
 * changes only with its version. A working copy of this repository (a contributor's, or a
 * linked one) changes with every edit of the compiler, under the same version: there the newest
 * modification time of its sources joins the version, so an edit of the generator is never
 * answered with code the previous generator made.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ownManifest, ownPackageRoot } from '../own-package.js';

/** In a working copy, the newest modification time of its compiler's files (looked up once); '' when installed. */
let workingCopyStamp: string | undefined;

/** The version, and in a working copy the newest modification time of `src/`, `dist/src/` and `runtime/`. */
export function compilerIdentity(): string {
  if (workingCopyStamp === undefined) {
    const root = ownPackageRoot();
    workingCopyStamp = root.split(path.sep).includes('node_modules') ? '' : `+${newestModification(root)}`;
  }
  return `${ownManifest().version}${workingCopyStamp}`;
}

function newestModification(root: string): number {
  let newest = 0;
  const walk = (folder: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // a folder a working copy lacks (dist/ before a build)
    }
    for (const entry of entries) {
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) newest = Math.max(newest, statSync(child).mtimeMs);
    }
  };
  for (const folder of ['src', path.join('dist', 'src'), 'runtime']) walk(path.join(root, folder));
  return Math.floor(newest);
}
