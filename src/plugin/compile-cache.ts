/**
 * One compile per content: the plugin's compiled `.idl` modules, kept in memory (bounded, least
 * recently used first out) and, when a cache folder is given, on disk for the next build.
 *
 * The key is a hash of the package version (and in a working copy of this repository, the time
 * of its latest edit: see compiler-identity.ts), the module's file (generated imports are relative to
 * it), `maxIdlBytes` and the module's text. The files it imports are not known before compiling,
 * so an entry lists them with their content hashes, and a hit reads and hashes them again: an edit
 * of an imported file is a miss like an edit of the module's own. Only successful compiles are
 * kept: a broken file is compiled (and reported) every time.
 *
 * Lives in the plugin's light part: a hit loads neither the compiler nor the generators. A hit from
 * disk has no model; {@link CachedIdlModule.model} then parses and checks the files (no code
 * generation, a fraction of a compile) when openapi.json is built.
 */
import path from 'node:path';
import type { CompiledIdlModule } from '../codegen/idl-module.js';
import type { IdlModel, ModelSourceFile } from '../idl/model.js';
import { compilerIdentity } from './compiler-identity.js';
import { loadCompilerPart } from './compiler-part-loader.js';
import { contentHash, fileContentHash } from './content-hash.js';
import type { DeferredDiskWrites } from './deferred-disk-writes.js';
import { type CacheEntry, type CachedModulePart, readDiskEntry, writeDiskEntry } from './disk-cache.js';
import { generatesInParts } from './module-parts.js';
import { readIdlFile } from './read-idl-file.js';

/** A compiled `.idl` module, from the cache or compiled just now. */
export interface CachedIdlModule {
  file: string;
  /** Every file the module was compiled from: `file`, then the files it imports. */
  files: string[];
  /** The program's files with their namespaces (the model's `files`). */
  programFiles: readonly ModelSourceFile[];
  js: string;
  /** The source map of `js` (JSON), into the IDL files. */
  jsMap: string;
  /** A large module generated in parts (module-parts.ts): `js` is an index that re-exports these. */
  parts?: readonly CachedModulePart[];
  dts: string;
  /** The declaration map of `dts` (JSON). */
  dtsMap: string;
  /**
   * A hash of everything the module was compiled from (its cache key and its imported files'
   * content hashes): the document cache's key for this module.
   */
  contentKey: string;
  /** The checked model (for openapi.json): kept from the compile, or parsed and checked on first use. */
  model(): Promise<IdlModel>;
}

/** What the cache did since the process started (or the last {@link resetCompileCache}); tests read it. */
export const compileCacheStats = { memoryHits: 0, diskHits: 0, misses: 0 };

/** The in-memory cache's bounds: a dev server edits for hours, each edit a new key. */
const MEMORY_MAX_ENTRIES = 500;
const MEMORY_MAX_WEIGHT = 64 * 1024 * 1024;
/**
 * A checked model holds roughly this many bytes of heap per byte of IDL (its syntax tree and
 * tables); counted against the bound when the entry holds one.
 */
const MODEL_BYTES_PER_SOURCE_BYTE = 20;
/**
 * Versions of one file kept in memory: the newest and the one before it (an edit undone is a hit).
 * Older versions of an edited file are rarely asked for again, and a dev server's edits of a large
 * file would otherwise fill the bound with them (a 10,000-line file's versions are about 14 MB each),
 * which makes every collection of the dev server's heap, and so every edit, slower.
 */
const MEMORY_VERSIONS_PER_FILE = 2;

interface MemoryEntry {
  key: string;
  /** The module's file, resolved (the key's file). */
  resolvedFile: string;
  entry: CacheEntry;
  text: string;
  maxBytes: number;
  sourceBytes: number;
  weight: number;
  contentKey: string;
  model?: Promise<IdlModel>;
}

/** Insertion order is use order: a hit moves its entry to the end; the first one is evicted. */
const memory = new Map<string, MemoryEntry>();
let memoryWeight = 0;

/** Forgets the in-memory entries and zeroes the stats (tests). */
export function resetCompileCache(): void {
  memory.clear();
  memoryWeight = 0;
  Object.assign(compileCacheStats, { memoryHits: 0, diskHits: 0, misses: 0 });
}

/**
 * Reads `file` and returns its compiled module: from memory or `diskFolder` when the module's text
 * and every imported file's are those it was compiled from, else compiled now (and stored).
 * Throws `IdlFileReadError` and `IdlModuleError` as compiling does. With `deferredWrites` (the dev
 * server), a new entry goes to disk once the file has held still, after the module is returned.
 * `hostTakesParts`: a large module may be generated in parts (module-parts.ts).
 */
export async function compileIdlFileCached(
  file: string,
  maxBytes: number,
  diskFolder: string | undefined,
  deferredWrites?: DeferredDiskWrites,
  hostTakesParts = false,
): Promise<CachedIdlModule> {
  const text = await readIdlFile(file, maxBytes);
  const version = compilerIdentity();
  const inParts = generatesInParts(hostTakesParts, text);
  // The key of a module in one piece is what it always was: hosts of both kinds share entries of small files.
  const keyed = [version, path.resolve(file), maxBytes, contentHash(text), ...(inParts ? ['parts'] : [])];
  const key = contentHash(JSON.stringify(keyed));
  const remembered = memory.get(key);
  if (remembered && importsUnchanged(remembered.entry, maxBytes)) {
    compileCacheStats.memoryHits++;
    memory.delete(key);
    memory.set(key, remembered);
    return moduleOf(remembered);
  }
  const stored = diskFolder === undefined ? undefined : await readDiskEntry(diskFolder, key, version);
  if (stored && stored.file === file && importsUnchanged(stored, maxBytes)) {
    compileCacheStats.diskHits++;
    // The imported files' sizes are not stored; the module's own stands in for each.
    return moduleOf(remember(key, stored, text, maxBytes, text.length * stored.files.length));
  }
  compileCacheStats.misses++;
  const { compileIdlText } = await loadCompilerPart();
  // A dev server compiles its files again on every edit, and so does a watch build once a file was
  // compiled before: only then is a generation worth keeping for the next (GenerateModuleOptions.reuse).
  const regenerated = deferredWrites !== undefined || versionsOf(path.resolve(file)).length > 0;
  const compiled = compileIdlText(text, file, maxBytes, regenerated, inParts);
  const entry = entryOf(compiled);
  if (diskFolder !== undefined) {
    const write = () => writeDiskEntry(diskFolder, key, version, entry);
    if (deferredWrites) deferredWrites.schedule(path.resolve(file), write);
    else await write();
  }
  const sourceBytes = [...compiled.sources.values()].reduce((sum, source) => sum + source.length, 0);
  return moduleOf(remember(key, entry, text, maxBytes, sourceBytes, compiled.model));
}

function entryOf(compiled: CompiledIdlModule): CacheEntry {
  const imports = compiled.files.slice(1).map((file) => {
    const source = compiled.sources.get(file);
    if (source === undefined) throw new Error(`internal error: the compiler kept no text of ${file}`);
    return { file, hash: contentHash(source) };
  });
  const { file, files, js, jsMap, parts } = compiled;
  return withDeclarationsOf({ file, files, imports, programFiles: compiled.model.files, js, jsMap, ...(parts ? { parts } : {}) }, compiled);
}

/**
 * `fields` with the declarations (`dts`, `dtsMap`) of `source`, read from it when read: a dev
 * server's are made when first read, after the module was served (see idl-module.ts).
 */
function withDeclarationsOf<T extends object>(fields: T, source: { readonly dts: string; readonly dtsMap: string }): T & Declarations {
  return Object.defineProperties(fields, {
    dts: { get: () => source.dts, enumerable: true },
    dtsMap: { get: () => source.dtsMap, enumerable: true },
  }) as T & Declarations;
}

/** A module's declarations and their map. */
interface Declarations {
  readonly dts: string;
  readonly dtsMap: string;
}

/** Whether every imported file still has the content the entry was compiled from (read and hashed: they are small). */
function importsUnchanged(entry: CacheEntry, maxBytes: number): boolean {
  return entry.imports.every(({ file, hash }) => fileContentHash(file, maxBytes) === hash);
}

function remember(key: string, entry: CacheEntry, text: string, maxBytes: number, sourceBytes: number, model?: IdlModel): MemoryEntry {
  const contentKey = contentHash(JSON.stringify([key, entry.imports]));
  const remembered: MemoryEntry = {
    key,
    resolvedFile: path.resolve(entry.file),
    entry,
    text,
    maxBytes,
    sourceBytes,
    weight: 0,
    contentKey,
  };
  if (model) remembered.model = Promise.resolve(model);
  reweigh(remembered);
  const replaced = memory.get(key);
  if (replaced) memoryWeight -= replaced.weight;
  memory.delete(key);
  memory.set(key, remembered);
  memoryWeight += remembered.weight;
  forgetOlderVersions(remembered.resolvedFile);
  evict();
  return remembered;
}

/** The versions of `resolvedFile` in memory (those this process compiled), least recently used first. */
function versionsOf(resolvedFile: string): MemoryEntry[] {
  return [...memory.values()].filter((remembered) => remembered.resolvedFile === resolvedFile);
}

/** Drops the least recently used versions of `resolvedFile` beyond MEMORY_VERSIONS_PER_FILE. */
function forgetOlderVersions(resolvedFile: string): void {
  for (const older of versionsOf(resolvedFile).slice(0, -MEMORY_VERSIONS_PER_FILE)) {
    memory.delete(older.key);
    memoryWeight -= older.weight;
  }
}

/** Sets the bytes an entry holds, roughly: its strings, and its model when it has one. */
function reweigh(remembered: MemoryEntry): void {
  const { entry, text } = remembered;
  // Not the declarations: reading them would make them (and they are a sixth of the module's size).
  const partsLength = (entry.parts ?? []).reduce((sum, part) => sum + part.js.length + part.jsMap.length, 0);
  const weight =
    entry.js.length +
    entry.jsMap.length +
    partsLength +
    text.length +
    (remembered.model ? remembered.sourceBytes * MODEL_BYTES_PER_SOURCE_BYTE : 0);
  if (memory.get(remembered.key) === remembered) memoryWeight += weight - remembered.weight;
  remembered.weight = weight;
}

function evict(): void {
  for (const [key, remembered] of memory) {
    if (memory.size <= 1 || (memory.size <= MEMORY_MAX_ENTRIES && memoryWeight <= MEMORY_MAX_WEIGHT)) return;
    memory.delete(key);
    memoryWeight -= remembered.weight;
  }
}

function moduleOf(remembered: MemoryEntry): CachedIdlModule {
  const { entry } = remembered;
  const { file, files, programFiles, js, jsMap, parts } = entry;
  return withDeclarationsOf(
    {
      file,
      files,
      programFiles,
      js,
      jsMap,
      ...(parts ? { parts } : {}),
      contentKey: remembered.contentKey,
      model() {
        if (!remembered.model) {
          remembered.model = loadCompilerPart().then(({ compileIdlModel }) => compileIdlModel(remembered.text, file, remembered.maxBytes));
          // A model that failed (a file changed since) is not kept: the next call tries again.
          remembered.model.catch(() => {
            remembered.model = undefined;
          });
          reweigh(remembered);
          evict();
        }
        return remembered.model;
      },
    },
    entry,
  );
}
