/**
 * The hostile-input harness: every case runs in its own Node process with a small heap
 * (`--max-old-space-size=256`) and a hang guard, so a case that would eat the machine or hang fails
 * as that case instead of taking the test run down with it. Cases use the built package (`dist/`):
 * `npm test` builds first, and `ensureBuilt()` rebuilds when a source is newer.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, REPO_ROOT, ensureBuilt } from '../cli/run-cli.js';

export { ensureBuilt, REPO_ROOT };

/** The heap every hostile case runs under, in MB. */
export const HEAP_MB = 256;
/** A case that has not finished after this long is a hang. */
export const HANG_GUARD_MS = 60_000;

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the hang guard killed the process. */
  hung: boolean;
}

function run(args: string[], cwd: string, input?: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, ...args],
      { cwd, timeout: HANG_GUARD_MS, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const hung = Boolean(error && (error as NodeJS.ErrnoException & { killed?: boolean }).killed);
        resolve({ code: child.exitCode, stdout, stderr, hung });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Runs the built `idlrpc` with `args` under the heap cap and the hang guard. */
export function runHostileCli(args: string[], cwd = REPO_ROOT): Promise<ChildRun> {
  return run([BIN, ...args], cwd);
}

/**
 * Runs `source`, an ES module, under the heap cap and the hang guard. `DIST` in the source is the
 * file URL of the built package's `dist/` folder (e.g. `await import(DIST + 'src/index.js')`).
 */
export function runHostileScript(source: string, cwd = REPO_ROOT): Promise<ChildRun> {
  const dist = pathToFileURL(join(REPO_ROOT, 'dist/')).href;
  const module = `const DIST = ${JSON.stringify(dist)};\n${source}`;
  return run(['--input-type=module', '-'], cwd, module);
}

/** A fresh temporary folder, removed by the returned function. */
export function tempFolder(prefix = 'idlrpc-hostile-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** True when `text` holds a JavaScript stack trace (`    at fn (file:1:2)`) or an internal error. */
export function hasStackTrace(text: string): boolean {
  return (
    /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m.test(text) ||
    /Maximum call stack|JavaScript heap out of memory|Invalid string length/.test(text)
  );
}
