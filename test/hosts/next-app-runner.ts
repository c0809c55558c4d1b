/**
 * Runs `next` in a fresh app folder (fresh-app.ts): builds with either bundler, starts `next start`
 * or `next dev`, and calls the app's endpoint with a client generated from the app's `.idl`.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../cli/run-cli.js';
import { freePort, type RunningServer, stopProcessGroup, waitUntilAnswering } from './server-process.js';

const run = promisify(execFile);

/** The Next.js the test/hosts workspace installed (hoisted to the root node_modules). */
const NEXT_BIN = path.join(REPO_ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

export type NextBundler = 'turbopack' | 'webpack';

/** Turbopack must see the hoisted node_modules as part of the project: the fixture config reads this. */
function nextEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', IDLRPC_NEXT_ROOT: REPO_ROOT, NODE_ENV: undefined };
}

function bundlerFlags(bundler: NextBundler): string[] {
  return bundler === 'webpack' ? ['--webpack'] : [];
}

export interface NextBuild {
  ok: boolean;
  /** stdout and stderr together. */
  output: string;
}

/** `next build` in `dir`; resolves with the outcome instead of throwing. */
export async function nextBuild(dir: string, bundler: NextBundler): Promise<NextBuild> {
  try {
    const { stdout, stderr } = await run(process.execPath, [NEXT_BIN, 'build', ...bundlerFlags(bundler)], {
      cwd: dir,
      env: nextEnv(),
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}` };
  }
}

export type RunningNext = RunningServer;

/** Starts `next start` or `next dev` in `dir` and waits until it answers. */
export async function startNext(dir: string, command: 'start' | 'dev', bundler: NextBundler = 'turbopack'): Promise<RunningNext> {
  const port = await freePort();
  const flags = command === 'dev' ? bundlerFlags(bundler) : [];
  const child = spawn(process.execPath, [NEXT_BIN, command, ...flags, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    env: nextEnv(),
    detached: true, // its own process group: `next dev` starts workers of its own
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const running = { url, output: () => output, stop: () => stopProcessGroup(child) };
  try {
    await waitUntilAnswering(`${url}/rpc`, child);
  } catch (error) {
    await running.stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return running;
}
