/**
 * Runs `idlrpc -dts` in-process with captured output (the command table may not list it yet in
 * every checkout, so the command is passed explicitly).
 */
import { main } from '../../../src/cli/main.js';
import { dtsCommand } from '../../../src/cli/commands/dts.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runDts(args: string[], cwd: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(['-dts', ...args], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd }, [dtsCommand]);
  return { code, stdout, stderr };
}
