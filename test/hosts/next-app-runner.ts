/**
 * Runs `next` in a fresh app folder (fresh-app.ts): builds with either bundler, starts `next start`
 * or `next dev`, and calls the app's endpoint with a client generated from the app's `.idl`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../cli/run-cli.js';
import { type BuildOutcome, buildOutcome, freePort, type RunningServer, serverAnswering } from './server-process.js';

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

export type NextBuild = BuildOutcome;

/** `next build` in `dir`; resolves with the outcome instead of throwing. */
export async function nextBuild(dir: string, bundler: NextBundler): Promise<NextBuild> {
  return buildOutcome([NEXT_BIN, 'build', ...bundlerFlags(bundler)], dir, nextEnv());
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
  return serverAnswering(child, port);
}
