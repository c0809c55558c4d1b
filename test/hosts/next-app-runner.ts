/**
 * Runs `next` in a fresh app folder (fresh-app.ts): builds with either bundler, starts `next start`
 * or `next dev`, and calls the app's endpoint with a client generated from the app's `.idl`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../cli/run-cli.js';

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

export interface RunningNext {
  url: string;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

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

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`next did not answer ${url} within 120 s`);
}

function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return Promise.resolve();
  }
  const killer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 5_000);
  return exited.finally(() => clearTimeout(killer));
}

/** What the generated client got from the app's endpoint. */
export interface ClientAnswers {
  greeting: string;
  declaredError: { name: string; code: number } | string;
}

/**
 * Compiles the app's `greeter.idl` with the installed package's compiler into a client module in
 * the app, and calls the endpoint with it from a separate Node process: one answer, one declared error.
 */
export async function callWithGeneratedClient(dir: string, url: string): Promise<ClientAnswers> {
  const compilerUrl = new URL('node_modules/unplugin-idl-rpc/dist/src/plugin/compiler.js', `file://${dir}/`).href;
  const { compileIdlFile } = (await import(compilerUrl)) as {
    compileIdlFile(file: string, maxBytes: number, cacheFolder: undefined): Promise<{ js: string }>;
  };
  const compiled = await compileIdlFile(path.join(dir, 'greeter.idl'), 1 << 20, undefined);
  writeFileSync(path.join(dir, 'greeter-client.mjs'), compiled.js);
  const script = `
    import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
    import { GreeterServiceClient, NameTooLongError } from './greeter-client.mjs';
    const client = new GreeterServiceClient(new HttpTransport(${JSON.stringify(`${url}/rpc`)}));
    const greeting = await client.greet('node');
    const declaredError = await client.greet('a name that is far too long').then(
      () => 'no error',
      (error) => (error instanceof NameTooLongError ? { name: error.name, code: error.code } : String(error)),
    );
    console.log(JSON.stringify({ greeting, declaredError }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: 30_000 });
  return JSON.parse(stdout) as ClientAnswers;
}
