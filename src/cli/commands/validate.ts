import { EXIT_FAILURE, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { compileInputFile, diagnosticsReport } from '../idl-file.js';
import { formatDiagnostics } from '../../idl/code-frame.js';
import { portabilityWarnings } from '../../idl/portability.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';

/**
 * `-validate <file.idl>... [-portable]`: parse and check, report every error of every file. A valid
 * file's notes (an unknown doc tag) go to stderr with their frames; with `-portable`, so does a
 * located warning at each use of a construct the IDL family's other implementations do not read.
 * Neither fails the command.
 */
export const validateCommand: Command = {
  flag: '-validate',
  usage: '-validate <file.idl>... [-portable]',
  summary:
    'check IDL files and report every error with file:line:column (-portable: warn at each construct other implementations do not read)',
  async run(args, context) {
    const { positionals, booleans } = parseArgs(args, { booleans: ['-validate', '-portable'] });
    if (positionals.length === 0) throw new UsageError('-validate needs at least one .idl file');
    let failed = false;
    for (const path of positionals) {
      const result = await compileInputFile(path, context.cwd);
      if (result.model) {
        const m = result.model;
        context.stdout(
          escapeControlCharacters(
            `${path}: ok (${count(m.interfaces.length, 'interface')}, ${count(m.structs.length, 'struct')}, ` +
              `${count(m.enums.length, 'enum')}, ${count(m.errors.length, 'error')})\n`,
          ),
        );
        if (result.diagnostics.length > 0) context.stderr(`${formatDiagnostics(result.diagnostics, result.sources)}\n`);
        const warnings = booleans.has('-portable') ? portabilityWarnings(m) : [];
        if (warnings.length > 0) {
          const summary = escapeControlCharacters(`${count(warnings.length, 'portability warning')} in ${path}`);
          context.stderr(`${formatDiagnostics(warnings, result.sources)}\n\n${summary}\n`);
        }
      } else {
        failed = true;
        context.stderr(`${diagnosticsReport(result.diagnostics, result.sources, path)}\n`);
      }
    }
    return failed ? EXIT_FAILURE : EXIT_OK;
  },
};

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
