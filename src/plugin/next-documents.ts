/**
 * The documents (`openapi.json`, `openrpc.json`) of a Next.js production build. Neither bundler's
 * loader can emit them (Turbopack has no `emitFile` and no end-of-build hook), and loaders run in
 * several worker processes, so each loaded `.idl` is recorded as one small file named by the hash of
 * its path (no shared state, no lost writes), and Next's `compiler.runAfterProductionCompile` hook,
 * which runs in the `next build` process after either bundler, builds the documents from them into
 * the build's folder (`.next/openapi.json` by default). `next build` empties that folder first, so an
 * `.idl` no longer imported leaves the documents with the next build.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic, writeIfChanged } from '../atomic-write.js';
import { cacheFolder } from './cache-folder.js';
import { type CachedIdlModule, compileIdlFile, openApiDocument, openRpcDocument } from './compiler.js';
import type { ResolvedOptions } from './options.js';

/** The folder, inside the build's folder, where the loaders record the `.idl` files they loaded. */
export const RECORD_FOLDER = path.join('idl-rpc', 'loaded');

/** Records that `file` was loaded (idempotent). */
export async function recordLoadedIdl(recordFolder: string, file: string): Promise<void> {
  const name = createHash('sha256').update(file).digest('hex').slice(0, 32);
  await mkdir(recordFolder, { recursive: true });
  await writeIfChanged(path.join(recordFolder, name), file);
}

/** The `.idl` files recorded in `recordFolder` that still exist, sorted. */
async function loadedIdlFiles(recordFolder: string): Promise<string[]> {
  if (!existsSync(recordFolder)) return [];
  const names = await readdir(recordFolder);
  const files = await Promise.all(names.map((name) => readFile(path.join(recordFolder, name), 'utf8')));
  return files.filter((file) => existsSync(file)).sort();
}

/**
 * Writes the documents that are on for the recorded `.idl` files into `outFolder`. The files
 * compiled in this build, so the compile cache answers.
 */
export async function writeNextDocuments(
  options: ResolvedOptions,
  projectDir: string,
  recordFolder: string,
  outFolder: string,
): Promise<void> {
  if (!options.openapi && !options.openrpc) return;
  const files = await loadedIdlFiles(recordFolder);
  if (files.length === 0) return;
  const folder = cacheFolder(projectDir, options.cache, options.cacheDir);
  const modules: CachedIdlModule[] = [];
  for (const file of files) modules.push(await compileIdlFile(file, options.maxIdlBytes, folder));
  await mkdir(outFolder, { recursive: true });
  if (options.openapi) {
    const { source, warnings } = await openApiDocument(modules, options.openapi, folder);
    for (const warning of warnings) console.warn(`[unplugin-idl-rpc] openapi: ${warning}`);
    await writeFileAtomic(path.join(outFolder, options.openapi.fileName), source);
  }
  if (options.openrpc) {
    const { source, warnings } = await openRpcDocument(modules, options.openrpc, folder);
    for (const warning of warnings) console.warn(`[unplugin-idl-rpc] openrpc: ${warning}`);
    await writeFileAtomic(path.join(outFolder, options.openrpc.fileName), source);
  }
}
