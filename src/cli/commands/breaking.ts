import type { Contract } from '../../breaking/contract.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseArgs, UsageError, type Command } from '../command.js';
import { compileInputFile, diagnosticsReport, MAX_INPUT_BYTES } from '../idl-file.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';

/**
 * `-breaking -against <old> <new.idl>`: which changes from the baseline break which clients
 * (docs/breaking.md). Exit 1 when a change breaks at `-level`, 0 otherwise, 2 when the two cannot
 * be compared (wrong arguments, a baseline or file that cannot be read or is not valid).
 */
export const breakingCommand: Command = {
  flag: '-breaking',
  usage:
    '-breaking -against <old.idl | old.json | git:<rev>[:<path>]> <new.idl> [-level wire|openapi|source] [-accept <rule>[:<name>]]... [-json]',
  summary: 'list the changes from a baseline and which clients they break; exit 1 when one breaks at -level (default wire)',
  async run(args, context) {
    const { values, booleans, lists, positionals } = parseArgs(args, {
      values: ['-against', '-level'],
      booleans: ['-breaking', '-json'],
      lists: ['-accept'],
    });
    const against = values.get('-against');
    if (against === undefined) throw new UsageError('-breaking needs a baseline: -against <old.idl | old.json | git:<rev>[:<path>]>');
    if (positionals.length !== 1) throw new UsageError('-breaking needs exactly one new .idl file');
    const [file] = positionals;
    // Loaded here, not at start-up: the other commands do not pay for it.
    const breaking = await import('../../breaking/index.js');
    const level = values.get('-level') ?? 'wire';
    if (!breaking.isCheckLevel(level)) throw new UsageError(`-level must be one of ${breaking.CHECK_LEVELS.join(', ')}, got '${level}'`);
    const accept = (lists.get('-accept') ?? []).map((value) => {
      try {
        return breaking.acceptFlag(value);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    });

    // Exit 1 means "breaks"; a file that cannot be compared is 2, like a baseline that cannot be read.
    let compiled: Awaited<ReturnType<typeof compileInputFile>>;
    try {
      compiled = await compileInputFile(file, context.cwd);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      context.stderr(`${error.message}\n`);
      return EXIT_USAGE;
    }
    if (!compiled.model) {
      context.stderr(`${diagnosticsReport(compiled.diagnostics, compiled.sources, file)}\n`);
      return EXIT_USAGE;
    }
    let before: Contract;
    try {
      before = breaking.readBaseline(against, file, { cwd: context.cwd, maxBytes: MAX_INPUT_BYTES });
    } catch (error) {
      if (!(error instanceof breaking.BaselineError)) throw error;
      context.stderr(`idlrpc: ${error.message}\n`);
      return EXIT_USAGE;
    }
    const report = breaking.checkBreaking({
      before,
      after: breaking.contractFromModel(compiled.model),
      sources: compiled.sources,
      level,
      accept,
    });
    if (booleans.has('-json')) context.stdout(`${JSON.stringify(breaking.reportJson(report, against, file), null, 2)}\n`);
    else context.stdout(escapeControlCharacters(breaking.formatReport(report)));
    return report.failures.length > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};
