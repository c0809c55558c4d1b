/**
 * A Vite dev server with the built plugin in a process of its own, as `vite` runs it: a failure
 * that would end the process ends this child, not the test run, and the test can tell. Everything
 * Vite's logger prints (the terminal) and every error payload sent to the pages (the overlay) is
 * collected.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IdlRpcPluginOptions } from '../../../src/plugin/options.js';
import { ensureBuilt, REPO_ROOT } from '../../cli/run-cli.js';

/** What the child writes on a line of its own before an overlay payload's JSON. */
const OVERLAY_MARK = 'OVERLAY ';

export interface DevServerProcess {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** Everything printed so far (stdout and stderr, as the terminal shows them). */
  terminal(): string;
  /** The `err` of every error payload sent to pages so far. */
  overlays(): { message: string; [key: string]: unknown }[];
  /** The exit code or signal once the process ended; undefined while it runs. */
  ended(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Ends the process (if it still runs). */
  stop(): Promise<void>;
}

function childSource(root: string, options: IdlRpcPluginOptions): string {
  const plugin = pathToFileURL(join(REPO_ROOT, 'dist/src/plugin/vite.js')).href;
  return `
const { createServer } = await import('vite');
const { default: idlRpc } = await import(${JSON.stringify(plugin)});
const server = await createServer({
  configFile: false, root: ${JSON.stringify(root)}, logLevel: 'info', clearScreen: false,
  server: { host: '127.0.0.1', port: 0 }, plugins: [idlRpc(${JSON.stringify(options)})],
});
const send = server.ws.send.bind(server.ws);
server.ws.send = (payload, ...rest) => {
  if (payload && payload.type === 'error') process.stdout.write(${JSON.stringify(OVERLAY_MARK)} + JSON.stringify(payload.err) + '\\n');
  return send(payload, ...rest);
};
await server.listen();
process.stdout.write('LISTENING http://127.0.0.1:' + server.httpServer.address().port + '\\n');
`;
}

/** Starts the dev server on `root` and resolves once it listens. */
export async function startDevServerProcess(root: string, options: IdlRpcPluginOptions): Promise<DevServerProcess> {
  ensureBuilt();
  // Colours on, as in a terminal: what leaves the server must come without them.
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1' };
  delete env.NO_COLOR;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', childSource(root, options)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ending: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ending = { code, signal };
      resolve();
    }),
  );
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const base = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const listening = /^LISTENING (\S+)$/m.exec(output);
      if (listening) {
        clearInterval(check);
        resolve(listening[1]);
      } else if (ending) {
        clearInterval(check);
        reject(new Error(`the dev server ended before listening (${JSON.stringify(ending)}):\n${output}`));
      }
    }, 50);
  });
  const lines = () => output.split('\n');
  return {
    base,
    terminal: () =>
      lines()
        .filter((line) => !line.startsWith(OVERLAY_MARK))
        .join('\n'),
    overlays: () =>
      lines()
        .filter((line) => line.startsWith(OVERLAY_MARK))
        .map((line) => JSON.parse(line.slice(OVERLAY_MARK.length)) as { message: string }),
    ended: () => ending,
    async stop() {
      if (!ending) child.kill('SIGTERM');
      await exited;
    },
  };
}
