/**
 * Test helper: runs the `idlrpc` command in this process (src/cli/main.ts's `main`), its output
 * collected: quicker than the child process of run-cli.ts, for the tests of one command's logic.
 */
import { main } from '../../src/cli/main.js';
import type { CliRun } from './run-cli.js';

/** Runs `idlrpc ...argv` with `cwd` as its working folder. */
export async function runMain(cwd: string, argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd });
  return { code, stdout, stderr };
}
