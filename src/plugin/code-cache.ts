/**
 * Running a CommonJS script with V8's code cache kept on disk, so that a new process does not
 * compile the script's functions again: what Node 22's module compile cache
 * (`module.enableCompileCache`) does for every module and Node 20, which the project runs on, has
 * no form of for ES modules. The plugin's compiler part is such a script (compiler-part-loader.ts):
 * a fresh process's first compile of checkout.idl took 45-49 ms, 27-33 with the cache.
 *
 * One cache file per script text and JavaScript engine, in a folder of the user's own under the
 * system's temporary folder (where Node's compile cache and `v8-compile-cache` keep theirs), so that
 * every project on the machine shares it and a fresh checkout starts with it. The key is the
 * script's content hash: V8 itself checks only a script's length before it trusts a cache.
 * `IDLRPC_CACHE=0` turns it off, as it does the compile cache. Cache files are kept per V8 version: a
 * cache of another one would be refused anyway.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { cacheSwitchedOff } from './cache-folder.js';

/**
 * What became of a script's code cache: `accepted` (read and used), `rejected` (read, but the
 * engine refused it: another engine build or flags), `absent` (none yet), `off` (no cache folder:
 * switched off, or the folder is not the user's own).
 */
export type CodeCacheState = 'accepted' | 'rejected' | 'absent' | 'off';

export interface RunScript {
  /** What the script put in `module.exports`. */
  exports: unknown;
  codeCache: CodeCacheState;
  /** Writes the cache of everything the script compiled so far; a no-op once one was accepted or when off. */
  saveCodeCache(): void;
}

/** How a script names a module that the ES module running it lends it: this prefix, then the module's path in the package's dist/. */
export const LENT_MODULE_PREFIX = 'shell:';

/**
 * The `shared` of `runCommonJsScript` for a runner that lends the script `modules` (by their path in
 * dist/); a module asked for that is not among them is an error naming `lister`, the file that lists them.
 */
export function lentModules(modules: Readonly<Record<string, unknown>>, lister: string): (specifier: string) => unknown {
  return (specifier) => {
    if (!specifier.startsWith(LENT_MODULE_PREFIX)) return undefined;
    const module = modules[specifier.slice(LENT_MODULE_PREFIX.length)];
    if (module === undefined) throw new Error(`the script needs ${specifier}, which ${lister} does not list`);
    return module;
  };
}

/**
 * Cache files kept in the folder: those of the scripts a process runs (a shell, about 0.1-0.2 MB, and
 * the compiler part, 0.6 MB) of the few installed versions in use.
 */
const KEPT_CACHE_FILES = 8;

export interface CodeCacheOptions {
  /** Read for `IDLRPC_CACHE`; process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** The folder the cache's own folder goes in; the system's temporary folder by default. */
  under?: string;
}

/**
 * Runs the CommonJS script `file` as Node would (`exports`, `require`, `module`, `__filename`,
 * `__dirname`) with its code cache, when there is one. `shared(specifier)` answers a `require`
 * before Node does (undefined: Node resolves it from the script's folder).
 */
export function runCommonJsScript(file: string, shared: (specifier: string) => unknown, options: CodeCacheOptions = {}): RunScript {
  const text = readFileSync(file, 'utf8');
  const cacheFile = codeCacheFile(path.basename(file), text, options);
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new Script(commonJsWrapped(text), { filename: file, cachedData });
  const codeCache: CodeCacheState =
    cacheFile === undefined ? 'off' : cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as unknown };
  const requireFromScript = createRequire(file);
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  // With `resolve`, as Node's own: the scripts find where unplugin is installed by it (unplugin-url.mjs).
  const requireInScript = Object.assign((specifier: string) => shared(specifier) ?? requireFromScript(specifier), {
    resolve: requireFromScript.resolve,
  });
  run(module.exports, requireInScript, module, file, path.dirname(file));
  const saveCodeCache = () => {
    if (cacheFile !== undefined && codeCache !== 'accepted') writeCodeCache(cacheFile, script.createCachedData());
  };
  return { exports: module.exports, codeCache, saveCodeCache };
}

/**
 * `runCommonJsScript` for a script a process runs once: a process that found no cache it could use
 * writes one when it exits, when it holds every function the process ran, not only those loading
 * compiled. Returns the script's exports.
 */
export function runCachedScriptOnce(file: string, shared: (specifier: string) => unknown): unknown {
  const { exports, codeCache, saveCodeCache } = runCommonJsScript(file, shared);
  if (codeCache === 'absent' || codeCache === 'rejected') process.once('exit', saveCodeCache);
  return exports;
}

/** The text V8 compiles for a CommonJS script: Node's module wrapper around it. */
export function commonJsWrapped(text: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
}

/** The folder of the code caches under `under`: one per user. */
export function codeCacheFolder(under: string = tmpdir()): string {
  return path.join(under, `unplugin-idl-rpc-code-cache-${process.getuid?.() ?? 'user'}`);
}

/**
 * The cache file of a script's text, or undefined when the cache is off or its folder is not safe to
 * trust. Off under Bun: it takes such a cache, but built the checkout app no sooner with it (87-90
 * ms against 83-87).
 */
function codeCacheFile(name: string, text: string, { env = process.env, under }: CodeCacheOptions): string | undefined {
  if (cacheSwitchedOff(env) || process.versions.bun !== undefined) return undefined;
  const folder = ownFolder(codeCacheFolder(under));
  if (folder === undefined) return undefined;
  const key = createHash('sha256').update(`${process.versions.v8}\0${process.arch}\0`).update(text).digest('hex').slice(0, 32);
  return path.join(folder, `${name}.${key}.bin`);
}

/**
 * `folder`, created if missing, when only this user can write in it; undefined otherwise. A cache
 * is code the engine runs: one that another user could have put there must not be read. (Windows
 * reports no such mode for folders, so there the cache is off.)
 */
function ownFolder(folder: string): string | undefined {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stats = lstatSync(folder);
    const ours = process.getuid === undefined || stats.uid === process.getuid();
    return stats.isDirectory() && ours && (stats.mode & 0o022) === 0 ? folder : undefined;
  } catch {
    return undefined;
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` whole or not at all (several processes may write it at once), then prunes the folder. */
function writeCodeCache(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, file);
    pruneFolder(path.dirname(file));
  } catch {
    // A cache that could not be written only makes the next process as slow as this one was.
    rmSync(temporary, { force: true });
  }
}

/** Deletes all but the KEPT_CACHE_FILES most recently written cache files. */
function pruneFolder(folder: string): void {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => ({ file: path.join(folder, name), written: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const { file } of files.slice(KEPT_CACHE_FILES)) rmSync(file, { force: true });
}
