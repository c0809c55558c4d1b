/**
 * A build or server process of a host under test: a build's outcome, a free port, waiting until a
 * server answers, stopping its process group.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How a build ended: whether it succeeded, and what it printed. */
export interface BuildOutcome {
  ok: boolean;
  /** stdout and stderr together. */
  output: string;
}

/** Runs a build (`node <args>` in `cwd`); resolves with its outcome instead of throwing. */
export async function buildOutcome(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<BuildOutcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}` };
  }
}

/**
 * Collects what a server started `detached` on `port` prints and resolves once its `/rpc` answers;
 * stops it and rejects, with its output, when it exits or does not answer.
 */
export async function serverAnswering(child: ChildProcess, port: number): Promise<RunningServer> {
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

export interface RunningServer {
  url: string;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A port no one listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once `url` answers anything; rejects when the process exits or after two minutes. */
export async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`the server did not answer ${url} within 120 s`);
}

/** Stops a process started `detached` and the processes it started (SIGTERM, then SIGKILL after 5 s). */
export function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return Promise.resolve();
  }
  const killer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5_000);
  return exited.finally(() => clearTimeout(killer));
}
