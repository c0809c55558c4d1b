/**
 * What the commands that convert a document to IDL (-openapi-to-idl, -openrpc-to-idl) do with their
 * input and the converter's result, and how every converting command reports warnings.
 */
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../atomic-write.js';
import { formatDiagnostics } from '../../idl/code-frame.js';
import { tryCompileIdl } from '../../idl/compile.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';
import type { ConversionWarning } from '../../openapi/index.js';
import { CliError, type CliContext } from '../command.js';

/**
 * The document a converting command was given, read with `read` (the converter's own reader, which
 * takes only a regular file up to the size limit: never a device or FIFO given by mistake).
 */
export function readInputDocument(input: string, cwd: string, read: (path: string) => string): { path: string; text: string } {
  const path = resolve(cwd, input);
  try {
    return { path, text: read(path) };
  } catch (error) {
    throw new CliError(`cannot read ${input}: ${(error as Error).message}`);
  }
}

/** `<input>: warning: <pointer>: <message>`, one line each. */
export function reportWarnings(input: string, warnings: readonly ConversionWarning[], write: (text: string) => void): void {
  if (warnings.length === 0) return;
  write(warnings.map((w) => `${input}: warning: ${w.pointer || '/'}: ${w.message}\n`).join(''));
}

/**
 * Reports the conversion's warnings (with `strict`, any of them fails the command before anything
 * is written), checks that the IDL compiles, writes it atomically as `<outputDir>/<idlName>` and
 * prints its path.
 */
export async function writeConvertedIdl(
  input: string,
  converted: { idl: string; warnings: readonly ConversionWarning[] },
  target: { outputDir: string; idlName: string; strict: boolean },
  context: CliContext,
): Promise<void> {
  reportWarnings(input, converted.warnings, context.stderr);
  if (target.strict && converted.warnings.length > 0) {
    throw new CliError(`${input}: ${converted.warnings.length} warning(s) and -strict: nothing written`);
  }
  // The converters promise IDL that checks clean; verify before writing anything.
  const check = tryCompileIdl(converted.idl, target.idlName);
  if (!check.model) {
    throw new CliError(
      `${input}: internal error: the converted IDL does not check:\n${formatDiagnostics(check.diagnostics, check.source)}`,
    );
  }
  const output = resolve(context.cwd, target.outputDir, target.idlName);
  await writeFileAtomic(output, converted.idl);
  context.stdout(escapeControlCharacters(`${output}\n`));
}
