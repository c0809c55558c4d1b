/**
 * Debian's Go (`/usr/bin/go`, package golang-go) for the tests of the generated Go client, and how
 * they generate and build it. Outside CI a test without Go skips with the reason; in CI (`CI` set)
 * a missing Go is a failure. Builds share one cache folder between runs (GOCACHE), so a second run
 * compiles only what changed. Standard library only: no module is ever downloaded (GOPROXY=off).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIdlFile } from '../../src/cli/idl-file.js';
import { writeFilesAtomic } from '../../src/atomic-write.js';
import { generateGoFiles } from '../../src/go/index.js';

export const goPath = '/usr/bin/go';
export const gofmtPath = '/usr/bin/gofmt';
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Why a Go test cannot run here, or undefined when it can; throws in CI when Go is missing. */
export function goMissing(): string | undefined {
  if (existsSync(goPath) && existsSync(gofmtPath)) return undefined;
  const reason = `Go not found at ${goPath} (Debian: apt-get install golang-go)`;
  if (process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

/** The environment of every go command: a cache kept between runs, no network, no workspace. */
export function goEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const cache = path.join(tmpdir(), 'idlrpc-go-test-cache');
  return {
    ...process.env,
    GOCACHE: path.join(cache, 'build'),
    GOPATH: path.join(cache, 'gopath'),
    GOFLAGS: '',
    // No go.env file of the user's (HOME may be unset or not writable).
    GOENV: 'off',
    GOPROXY: 'off',
    GOWORK: 'off',
    GO111MODULE: 'on',
    GOTOOLCHAIN: 'local',
    CGO_ENABLED: '0',
    ...extra,
  };
}

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Go tool in `cwd`; resolves whatever the exit code (killed after `timeoutMs`). */
export function runGoTool(
  tool: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(tool, args, { cwd, env: goEnvironment(env), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr });
    });
  });
}

/** Generates the Go client of an IDL file into a new temporary module (`go.mod` included); returns its folder. */
export async function generateGoModule(
  idlFile: string,
  module: string,
): Promise<{ dir: string; files: Map<string, string>; remove(): Promise<void> }> {
  const { model } = await loadIdlFile(idlFile, repositoryRoot);
  const files = generateGoFiles(model, { module, sourceFile: path.basename(idlFile), goMod: true });
  const dir = await mkdtemp(path.join(tmpdir(), 'idlrpc-go-'));
  await writeFilesAtomic(dir, files);
  return { dir, files, remove: () => rm(dir, { recursive: true, force: true }) };
}
