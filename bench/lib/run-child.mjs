/** Runs a benchmark script in a fresh Node process and reads the JSON it prints last. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `node [nodeArgs] script ...args` (in `cwd`, default this process's; `command` instead of node,
 * e.g. Bun's binary); resolves with the last line of its stdout parsed as JSON.
 * Rejects with the end of its stderr when it fails, so a broken build says why.
 */
export async function runJsonChild(script, args, { nodeArgs = [], timeoutMs = 600_000, cwd, command = process.execPath } = {}) {
  try {
    const { stdout } = await run(command, [...nodeArgs, script, ...args], { maxBuffer: 64 << 20, timeout: timeoutMs, cwd });
    return JSON.parse(stdout.trim().split('\n').pop());
  } catch (error) {
    const stderr = typeof error?.stderr === 'string' ? error.stderr.trim().slice(-2000) : '';
    throw new Error(`${script} ${args.join(' ')} failed: ${stderr || error.message}`);
  }
}
