/**
 * Reading the old contract a new IDL is compared with (`-against`, the plugin's `breaking.against`):
 *
 * - `git:<rev>` / `git:<rev>:<path>`: the file (and every file it imports) at a git revision;
 * - a `.json` file: the IDL JSON that `rpc-idl` serves (a running server's contract), without
 *   source positions;
 * - any other path: an `.idl` file, with the files it imports.
 */
import path from 'node:path';
import type { IdlJson } from '../../runtime/idl-json.js';
import { formatDiagnostics } from '../idl/code-frame.js';
import { tryCompileIdl } from '../idl/compile.js';
import { nodeFileHost } from '../idl/file-host.js';
import { FileRefusedError, readRegularFile, refusalText } from '../read-regular-file.js';
import { BaselineError } from './baseline-error.js';
import { type Contract, contractFromJson, contractFromModel } from './contract.js';
import { gitFileHost, gitShow, locateGitBaseline, parseGitBaseline } from './git-baseline.js';
import { idlJsonProblem } from './idl-json-shape.js';

export { BaselineError } from './baseline-error.js';

export interface BaselineOptions {
  /** The folder relative paths are read from. */
  cwd: string;
  /** The largest file read, in bytes (each imported file too). */
  maxBytes: number;
}

/**
 * The contract of the baseline `against` for the new file `newFile` (whose path a `git:<rev>`
 * baseline reads at the revision).
 *
 * @throws BaselineError when it cannot be read or is not a valid contract.
 */
export function readBaseline(against: string, newFile: string, options: BaselineOptions): Contract {
  if (parseGitBaseline(against)) return readGitBaseline(against, newFile, options);
  const text = readBaselineFile(against, options);
  if (against.endsWith('.json')) return jsonBaseline(text, against);
  return compiledBaseline(
    tryCompileIdl(text, against, { host: nodeFileHost({ cwd: options.cwd, maxBytes: options.maxBytes }) }),
    against,
    (name) => name,
  );
}

function readGitBaseline(against: string, newFile: string, options: BaselineOptions): Contract {
  const baseline = locateGitBaseline(against, newFile, options.cwd);
  const text = gitShow(baseline, baseline.file, options.maxBytes);
  if (baseline.file.endsWith('.json')) return jsonBaseline(text, `${baseline.revision}:${baseline.file}`);
  const result = tryCompileIdl(text, baseline.file, { host: gitFileHost(baseline, options.maxBytes) });
  return compiledBaseline(result, against, (name) => `${baseline.revision}:${name.split(path.sep).join('/')}`);
}

function readBaselineFile(file: string, options: BaselineOptions): string {
  try {
    return readRegularFile(path.resolve(options.cwd, file), options.maxBytes);
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    const why = refusalText(error.reason, (bytes) => `${bytes} bytes, more than the ${options.maxBytes} bytes a baseline may have`);
    throw new BaselineError(`cannot read the baseline ${file}: ${why}`);
  }
}

function jsonBaseline(text: string, label: string): Contract {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(`the baseline ${label} is not JSON: ${(error as Error).message}`);
  }
  const problem = idlJsonProblem(value);
  if (problem) throw new BaselineError(`the baseline ${label} is not the IDL JSON that rpc-idl serves: ${problem}`);
  return contractFromJson(value as IdlJson, label);
}

function compiledBaseline(result: ReturnType<typeof tryCompileIdl>, against: string, fileLabel: (name: string) => string): Contract {
  if (!result.model) {
    const count = result.diagnostics.length;
    throw new BaselineError(
      `the baseline ${against} is not valid IDL (${count} error${count === 1 ? '' : 's'}):\n${formatDiagnostics(result.diagnostics, result.sources)}`,
    );
  }
  return contractFromModel(result.model, fileLabel);
}
