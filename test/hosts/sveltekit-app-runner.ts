/**
 * Runs SvelteKit in a fresh app folder (fresh-app.ts): `vite build` with adapter-node, then the
 * built server with `node build`.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../cli/run-cli.js';
import { freePort, type RunningServer, stopProcessGroup, waitUntilAnswering } from './server-process.js';

const run = promisify(execFile);

/** The Vite of the root (SvelteKit 2.70 takes Vite 8). */
const VITE_BIN = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

export interface SvelteKitBuild {
  ok: boolean;
  /** stdout and stderr together. */
  output: string;
}

/** `vite build` in `dir`; resolves with the outcome instead of throwing. */
export async function svelteKitBuild(dir: string): Promise<SvelteKitBuild> {
  try {
    const { stdout, stderr } = await run(process.execPath, [VITE_BIN, 'build'], {
      cwd: dir,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}` };
  }
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
