/**
 * Shared helpers of the example tests: a copy of an example under the gitignored
 * `test-output/examples/` (inside the repository, so `unplugin-idl-rpc/...` resolves to dist/ through
 * the package's own name and npm packages to its node_modules, as in an installed project), the
 * example's commands run as child processes, and its server started on a free port.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { waitForOutput } from '../child-process.js';
import { REPO_ROOT } from '../cli/run-cli.js';

export const TSC = path.join(REPO_ROOT, 'node_modules/.bin/tsc');

/** What a copy leaves out: build outputs and generated files a previous run in place may have left. */
const BUILD_OUTPUTS = new Set(['dist', 'gen', 'node_modules']);

/** A fresh copy of `examples/<name>` in `test-output/examples/<copyName>`; resolves to its path. */
export async function copyExample(name: string, copyName = name): Promise<string> {
  const target = path.join(REPO_ROOT, 'test-output/examples', copyName);
  await rm(target, { recursive: true, force: true });
  await mkdir(path.dirname(target), { recursive: true });
  const source = path.join(REPO_ROOT, 'examples', name);
  await cp(source, target, {
    recursive: true,
    filter: (file) => !BUILD_OUTPUTS.has(path.basename(file)) && !file.endsWith('.idl.d.ts'),
  });
  return target;
}

export interface CommandResult {
  code: number;
  output: string;
}

/** Runs a command to its end (bounded by a timeout); resolves with its exit code and everything it printed. */
export function run(command: string, args: string[], cwd: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: 90_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? (error.code as number) : 0, output: `${stdout}${stderr}` });
    });
  });
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Sends SIGTERM; resolves with the exit code once the process has ended. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node <file>` with `SERVER_PORT=0` (the runtime's `listen` then takes a free port) and
 * resolves once it prints `listening on http://localhost:<port>/`; rejects with its output when it
 * exits before, or prints nothing of the kind within 30 s (it is then killed).
 */
export async function startServer(file: string, cwd: string): Promise<RunningServer> {
  const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, SERVER_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const [, port] = await waitForOutput(child, /listening on http:\/\/localhost:(\d+)\//, 30_000, file);
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => stopServer(child, exited) };
}

function stopServer(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  child.kill('SIGTERM');
  return exited;
}

/** POSTs a JSON body; resolves with the HTTP status and the parsed answer. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}
