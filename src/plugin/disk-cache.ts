/**
 * The compile cache's entries on disk, one JSON file per key, so that the next build (a new process)
 * finds what this one generated; and beside them the finished documents (openapi.json,
 * openrpc.json) of the document cache, one `doc-<key>.json` each. Entries are written atomically (temporary file, then rename), so
 * builds sharing one folder never see half an entry; anything unreadable, unparsable or of another
 * shape or version is a miss, never an error: the file is compiled again and its entry rewritten.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelSourceFile } from '../idl/model.js';
import { writeFileAtomic } from '../atomic-write.js';

/** Bumped whenever the shape of an entry changes, so that old entries are misses. */
const ENTRY_FORMAT = 3;

/** What is kept of one compiled `.idl` module: everything the plugin needs but the model. */
export interface CacheEntry {
  /** The module's own file. */
  file: string;
  /** Every file it was compiled from, the module's own first (as the compiler names them). */
  files: string[];
  /** The imported files with the content hash each had when compiled: a hit checks them again. */
  imports: { file: string; hash: string }[];
  /** The program's files with their namespaces (the model's `files`), for the imported `.d.ts`. */
  programFiles: ModelSourceFile[];
  js: string;
  /** The source map of `js` (JSON). */
  jsMap: string;
  dts: string;
  /** The declaration map of `dts` (JSON). */
  dtsMap: string;
  /** A module generated in parts (module-parts.ts): `js` re-exports these. */
  parts?: CachedModulePart[];
}

/** One part of a module generated in parts. */
export interface CachedModulePart {
  part: string;
  js: string;
  /** The source map of `js` (JSON). */
  jsMap: string;
}

function entryPath(folder: string, key: string): string {
  return path.join(folder, `${key}.json`);
}

/** The entry stored under `key` by this `version` of the package, or undefined (a miss). */
export async function readDiskEntry(folder: string, key: string, version: string): Promise<CacheEntry | undefined> {
  try {
    const stored = JSON.parse(await readFile(entryPath(folder, key), 'utf8')) as unknown;
    return isStoredEntry(stored, key, version) ? stored.entry : undefined;
  } catch {
    return undefined;
  }
}

/** Stores `entry` under `key`; a folder that cannot be written only means no cache, so errors are ignored. */
export async function writeDiskEntry(folder: string, key: string, version: string, entry: CacheEntry): Promise<void> {
  const stored: StoredEntry = { format: ENTRY_FORMAT, version, key, entry };
  await writeFileAtomic(entryPath(folder, key), JSON.stringify(stored)).catch(() => undefined);
}

/** A finished document as the document cache keeps it: its JSON text and the converter's warnings. */
export interface CachedDocument {
  source: string;
  warnings: string[];
}

function documentPath(folder: string, key: string): string {
  return path.join(folder, `doc-${key}.json`);
}

/** The document stored under `key` by this `version` of the package, or undefined (a miss). */
export async function readDiskDocument(folder: string, key: string, version: string): Promise<CachedDocument | undefined> {
  try {
    const stored = JSON.parse(await readFile(documentPath(folder, key), 'utf8')) as unknown;
    if (!isRecord(stored) || stored.format !== ENTRY_FORMAT || stored.version !== version || stored.key !== key) return undefined;
    const document = stored.document;
    const valid =
      isRecord(document) &&
      typeof document.source === 'string' &&
      Array.isArray(document.warnings) &&
      document.warnings.every((warning) => typeof warning === 'string');
    return valid ? (document as unknown as CachedDocument) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores `document` under `key`; errors are ignored, as for entries. */
export async function writeDiskDocument(folder: string, key: string, version: string, document: CachedDocument): Promise<void> {
  const { source, warnings } = document;
  const stored = { format: ENTRY_FORMAT, version, key, document: { source, warnings } };
  await writeFileAtomic(documentPath(folder, key), JSON.stringify(stored)).catch(() => undefined);
}

interface StoredEntry {
  format: number;
  version: string;
  key: string;
  entry: CacheEntry;
}

function isStoredEntry(value: unknown, key: string, version: string): value is StoredEntry {
  if (!isRecord(value) || value.format !== ENTRY_FORMAT || value.version !== version || value.key !== key) return false;
  const entry = value.entry;
  if (!isRecord(entry)) return false;
  return (
    typeof entry.file === 'string' &&
    typeof entry.js === 'string' &&
    typeof entry.jsMap === 'string' &&
    typeof entry.dts === 'string' &&
    typeof entry.dtsMap === 'string' &&
    Array.isArray(entry.files) &&
    entry.files.every((file) => typeof file === 'string') &&
    Array.isArray(entry.imports) &&
    entry.imports.every((item) => isRecord(item) && typeof item.file === 'string' && typeof item.hash === 'string') &&
    (entry.parts === undefined ||
      (Array.isArray(entry.parts) &&
        entry.parts.every(
          (item) => isRecord(item) && typeof item.part === 'string' && typeof item.js === 'string' && typeof item.jsMap === 'string',
        ))) &&
    Array.isArray(entry.programFiles) &&
    entry.programFiles.every(
      (item) => isRecord(item) && typeof item.fileName === 'string' && (item.namespace === undefined || typeof item.namespace === 'string'),
    )
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
