/**
 * Reading and compiling an IDL file for a command, with errors in the CLI's format.
 */
import { resolve } from 'node:path';
import type { IdlFile } from '../idl/ast.js';
import { type DiagnosticSources, formatDiagnostics } from '../idl/code-frame.js';
import { type CompileResult, tryCompileIdl } from '../idl/compile.js';
import type { Diagnostic } from '../idl/diagnostic.js';
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlModel } from '../idl/model.js';
import { FileRefusedError, readRegularFile, refusalText } from '../read-regular-file.js';
import { CliError } from './command.js';

/**
 * The largest IDL file a command reads: 32 MiB. Far above any real IDL; the limit is there so that
 * a device or a runaway file fails at once instead of filling the memory.
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/**
 * Reads a text file given on the command line: a regular file of at most MAX_INPUT_BYTES. A missing
 * file, a folder, a device or FIFO, or a larger file is a CliError, not a stack trace or a hang.
 */
export async function readInputFile(path: string, cwd: string): Promise<string> {
  try {
    return readRegularFile(resolve(cwd, path), MAX_INPUT_BYTES);
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    throw new CliError(
      `cannot read ${path}: ${refusalText(error.reason, (bytes) => `${bytes} bytes, more than the ${MAX_INPUT_BYTES} bytes an IDL file may have`)}`,
    );
  }
}

export interface LoadedIdl {
  model: IdlModel;
  file: IdlFile;
  source: string;
}

/**
 * Reads and compiles an IDL file. Diagnostics are reported with the path as the user typed it.
 *
 * @throws CliError whose message lists every diagnostic with code frames.
 */
export async function loadIdlFile(path: string, cwd: string): Promise<LoadedIdl> {
  const result = await compileInputFile(path, cwd);
  if (!result.model || !result.file) throw new CliError(diagnosticsReport(result.diagnostics, result.sources, path));
  return { model: result.model, file: result.file, source: result.source };
}

/**
 * Reads and compiles an IDL file given on the command line, with the files it imports (read
 * relative to it, each at most MAX_INPUT_BYTES). Bad IDL comes back as diagnostics.
 */
export async function compileInputFile(path: string, cwd: string): Promise<CompileResult> {
  const text = await readInputFile(path, cwd);
  return tryCompileIdl(text, path, { host: nodeFileHost({ cwd, maxBytes: MAX_INPUT_BYTES }) });
}

/**
 * The diagnostics with their code frames (the first 100, then `and N more`), then `N errors in
 * <path>`: how commands report a bad file.
 */
export function diagnosticsReport(diagnostics: readonly Diagnostic[], sources: DiagnosticSources, path: string): string {
  const count = diagnostics.filter((d) => d.severity === 'error').length;
  return `${formatDiagnostics(diagnostics, sources)}\n\n${count} error${count === 1 ? '' : 's'} in ${path}`;
}
