/**
 * Reading and compiling an IDL file for a command, with errors in the CLI's format.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { IdlFile } from '../idl/ast.js';
import { formatDiagnostics } from '../idl/code-frame.js';
import { tryCompileIdl } from '../idl/compile.js';
import type { Diagnostic } from '../idl/diagnostic.js';
import type { IdlModel } from '../idl/model.js';
import { CliError } from './command.js';

/** Reads a text file given on the command line; a missing file is a CliError, not a stack trace. */
export async function readInputFile(path: string, cwd: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new CliError(`cannot read ${path}: ${reason}`);
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
  const text = await readInputFile(path, cwd);
  const result = tryCompileIdl(text, path);
  if (!result.model || !result.file) throw new CliError(diagnosticsReport(result.diagnostics, result.source, path));
  return { model: result.model, file: result.file, source: result.source };
}

/**
 * The diagnostics with their code frames (the first 100, then `and N more`), then `N errors in
 * <path>`: how commands report a bad file.
 */
export function diagnosticsReport(diagnostics: readonly Diagnostic[], source: string, path: string): string {
  const count = diagnostics.length;
  return `${formatDiagnostics(diagnostics, source)}\n\n${count} error${count === 1 ? '' : 's'} in ${path}`;
}
