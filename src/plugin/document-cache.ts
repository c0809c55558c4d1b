/**
 * One conversion per content: the finished openapi.json and openrpc.json, kept in memory (a few,
 * least recently used first out) and, when a cache folder is given, on disk for the next build.
 *
 * The key is a hash of the compiler's identity (compiler-identity.ts), the document's kind, its
 * options and the content keys of the modules it describes (each a hash of what the module was
 * compiled from, imported files included: see compile-cache.ts). An edit of any `.idl` or a change
 * of an option is a new key, so a new document; a hit needs no model, so a warm build with
 * unchanged files neither parses nor checks them again for the documents.
 */
import type { IdlModel } from '../idl/model.js';
import type { CachedIdlModule } from './compile-cache.js';
import { compilerIdentity } from './compiler-identity.js';
import { contentHash } from './content-hash.js';
import { type CachedDocument, readDiskDocument, writeDiskDocument } from './disk-cache.js';

/** Which document, and what its converter is given besides the models. */
export interface DocumentRequest {
  kind: 'openapi' | 'openrpc';
  options: unknown;
  modules: readonly CachedIdlModule[];
  /** The disk cache's folder; undefined: memory only. */
  diskFolder: string | undefined;
}

/** What the cache did since the process started (or the last {@link resetDocumentCache}); tests read it. */
export const documentCacheStats = { memoryHits: 0, diskHits: 0, misses: 0 };

/** The in-memory bounds: a dev server makes a new document on each edit, and one can be megabytes. */
const MEMORY_MAX_ENTRIES = 8;
const MEMORY_MAX_CHARS = 32 * 1024 * 1024;

/** Insertion order is use order: a hit moves its entry to the end; the first one is evicted. */
const memory = new Map<string, CachedDocument>();
let memoryChars = 0;

/** Forgets the in-memory documents and zeroes the stats (tests). */
export function resetDocumentCache(): void {
  memory.clear();
  memoryChars = 0;
  Object.assign(documentCacheStats, { memoryHits: 0, diskHits: 0, misses: 0 });
}

/**
 * The document of `request.modules`: from memory or disk when one was made from the same content
 * and options, else made now by `convert` from the modules' models (and stored). A failed
 * conversion is not kept.
 */
export async function cachedDocument(
  request: DocumentRequest,
  convert: (models: IdlModel[]) => Promise<CachedDocument>,
): Promise<CachedDocument> {
  const { kind, options, modules, diskFolder } = request;
  const version = compilerIdentity();
  const moduleKeys = modules.map((module) => module.contentKey).sort();
  const key = contentHash(JSON.stringify([version, kind, options, moduleKeys]));
  const remembered = memory.get(key);
  if (remembered) {
    documentCacheStats.memoryHits++;
    return remember(key, remembered);
  }
  const stored = diskFolder === undefined ? undefined : await readDiskDocument(diskFolder, key, version);
  if (stored) {
    documentCacheStats.diskHits++;
    return remember(key, stored);
  }
  documentCacheStats.misses++;
  const document = await convert(await Promise.all(modules.map((module) => module.model())));
  if (diskFolder !== undefined) await writeDiskDocument(diskFolder, key, version, document);
  return remember(key, document);
}

function remember(key: string, document: CachedDocument): CachedDocument {
  const replaced = memory.get(key);
  if (replaced) memoryChars -= replaced.source.length;
  memory.delete(key);
  memory.set(key, document);
  memoryChars += document.source.length;
  for (const [oldest, evicted] of memory) {
    if (memory.size <= 1 || (memory.size <= MEMORY_MAX_ENTRIES && memoryChars <= MEMORY_MAX_CHARS)) break;
    memory.delete(oldest);
    memoryChars -= evicted.source.length;
  }
  return document;
}
