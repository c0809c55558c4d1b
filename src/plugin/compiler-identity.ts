/**
 * What the compile cache's keys say about the compiler that made an entry. A published package
 * changes only with its version. A working copy of this repository (a contributor's, or a
 * linked one) changes with every edit of the compiler, under the same version: there the newest
 * modification time of the compiler's files joins the version, so an edit of the generator is never
 * answered with code the previous generator made.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * The folders of a working copy that hold the compiler that runs from `runningFrom` (this module's
 * own file by default). From the built plugin (dist/src/plugin/, whose bundles hold the compiler and
 * every module it imports; `npm run build` rewrites them all), that folder alone: an edit of the
 * sources changes nothing the bundles run until they are rebuilt, and walking the sources too took 5
 * of every build's 6 ms here. From the sources (`src/`, `runtime/`, as tests run the plugin), those
 * and the built plugin: when the bundles are newer than every source, both share one stamp, and so
 * cache entries.
 */
export function compilerFolders(root: string, runningFrom: string = fileURLToPath(import.meta.url)): string[] {
  const built = path.join(root, 'dist', 'src', 'plugin');
  if (runningFrom.startsWith(`${built}${path.sep}`)) return [built];
  return [path.join(root, 'src'), path.join(root, 'runtime'), built];
}

/**
 * The files that are code the compiler runs: not the declarations and source maps beside it, which
 * are two thirds of the built plugin's files (every build and dev server of a working copy, as the
 * bench runs them, looked them up).
 */
const RUN_CODE = /(?<!\.d)\.[cm]?[jt]s$/;

/**
 * The newest modification time (whole milliseconds) of the code files (RUN_CODE) in `folders` and
 * below; 0 for none.
 */
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
      else if (entry.isFile() && RUN_CODE.test(entry.name)) newest = Math.max(newest, statSync(child).mtimeMs);
    }
  };
  for (const folder of folders) walk(folder);
  return Math.floor(newest);
}
