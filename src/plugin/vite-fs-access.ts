/**
 * What the Vite dev server lets the plugin read and write. Vite checks its `server.fs` rules
 * (`strict`, `allow`, `deny`) only when it reads a module itself, not when a plugin's `load` hook
 * answers, so without this the plugin would read any file a browser names and write `.d.ts` files
 * anywhere. The check is Vite's own exported `isFileLoadingAllowed`, not a copy of it.
 */
import path from 'node:path';
import type { ResolvedConfig } from 'vite';
import { importModule } from './import-module.js';

export interface DevServerFsAccess {
  /** Whether Vite's `server.fs` rules let the browser load `file`. */
  mayLoad(file: string): boolean;
  /**
   * Whether the plugin may write next to `file`: Vite lets the browser load it, and it lies inside
   * the Vite root or a `server.fs.allow` folder (the project; this holds with `strict: false` too).
   */
  mayWriteBeside(file: string): boolean;
}

/** The access rules of the dev server with this resolved config. */
export async function devServerFsAccess(config: ResolvedConfig): Promise<DevServerFsAccess> {
  // Imported here, in the Vite dev server only: a value import would load Vite in every bundler.
  const { isFileLoadingAllowed, normalizePath } = await importModule<typeof import('vite')>('vite');
  const projectFolders = [config.root, ...config.server.fs.allow].map((folder) => path.resolve(folder));
  const mayLoad = (file: string): boolean => isFileLoadingAllowed(config, normalizePath(path.resolve(file)));
  return {
    mayLoad,
    mayWriteBeside: (file) => mayLoad(file) && projectFolders.some((folder) => isInsideFolder(folder, path.resolve(file))),
  };
}

function isInsideFolder(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
