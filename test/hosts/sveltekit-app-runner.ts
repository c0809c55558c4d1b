/**
 * Runs SvelteKit in a fresh app folder (fresh-app.ts): `vite build` with adapter-node, then the
 * built server with `node build`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../cli/run-cli.js';
import { type BuildOutcome, buildOutcome, freePort, type RunningServer, serverAnswering } from './server-process.js';

/** The Vite of the root (SvelteKit 2.70 takes Vite 8). */
const VITE_BIN = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

export type SvelteKitBuild = BuildOutcome;

/** `vite build` in `dir`; resolves with the outcome instead of throwing. */
export async function svelteKitBuild(dir: string): Promise<SvelteKitBuild> {
  return buildOutcome([VITE_BIN, 'build'], dir);
}

/** Starts the adapter-node server of a built app and waits until it answers. */
export async function startSvelteKit(dir: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['build'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ORIGIN: `http://127.0.0.1:${port}` },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return serverAnswering(child, port);
}
