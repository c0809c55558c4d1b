/**
 * Test helper: runs the built `idlrpc` (dist/src/cli/bin.js) as a child process. `ensureBuilt()`
 * rebuilds dist/ when a compiler or CLI source is newer than the built bin (so that running one
 * test file directly works; `npm test` has already built in `pretest`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(REPO_ROOT, 'dist/src/cli/bin.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/src/cli/bin.js ...args` in `cwd` (bounded by a timeout). */
export function runCli(args: string[], cwd = REPO_ROOT): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { cwd, timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ if the bin is missing or older than the sources of src/ or runtime/. */
export function ensureBuilt(): void {
  const builtAt = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
  const sources = Math.max(newestSource(join(REPO_ROOT, 'src')), newestSource(join(REPO_ROOT, 'runtime')));
  if (builtAt >= sources) return;
  try {
    execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'pipe', timeout: 180_000 });
  } catch {
    // Type errors elsewhere still emit JavaScript; the tests below fail clearly if the bin is missing.
  }
}
