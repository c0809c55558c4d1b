/**
 * Serving a one-file fetch-handler bundle (`export default { fetch }`) with `deno serve` and with
 * Cloudflare's workerd (a minimal config), for the tests of the fetch handler in those runtimes.
 * Both binaries are dev dependencies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { devBinary } from './hosts.js';

/** A server process and its address. */
export interface RuntimeServer {
  process: ChildProcess;
  address: string;
}

/** `deno serve` on `bundle` (a free port); resolves once it listens. */
export async function serveWithDeno(bundle: string, folder: string): Promise<RuntimeServer> {
  const server = spawn(devBinary('deno'), ['serve', '--host', '127.0.0.1', '--port', '0', bundle], {
    cwd: folder,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: path.join(folder, '.deno'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { process: server, address: await printedAddress(server, /Listening on (http:\/\/\S+?)\/?(?:\s|$)/) };
}

/** workerd with a minimal config running `bundle` (relative to `folder`); resolves once it answers. */
export async function serveWithWorkerd(bundle: string, folder: string): Promise<RuntimeServer> {
  const port = await freePort();
  const config = path.join(folder, 'config.capnp');
  await writeFile(config, workerdConfig(port, path.relative(folder, bundle)));
  const server = spawn(devBinary('workerd'), ['serve', config], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = `http://127.0.0.1:${port}`;
  await untilAnswering(server, address);
  return { process: server, address };
}

/** A minimal workerd config: one ES-module worker on one HTTP socket. */
function workerdConfig(port: number, bundle: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${bundle}") ],
  compatibilityDate = "2025-01-01",
);
`;
}

/** A port free right now (workerd takes its port from the config). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** What a process prints first matching `pattern` (group 1); rejects with its output if it ends first. */
function printedAddress(server: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match[1]);
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.on('exit', (code) => reject(new Error(`the server ended (exit ${code}) before listening:\n${output}`)));
  });
}

/** Resolves once `address` answers HTTP; rejects with the output if the process ends first. */
async function untilAnswering(server: ChildProcess, address: string): Promise<void> {
  let output = '';
  let exited: number | null | undefined;
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.on('exit', (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`workerd ended (exit ${exited}) before answering:\n${output}`);
    const answered = await fetch(address, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
