import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { IdlSyntaxError } from '../../idl/errors.js';
import { droppedComments, printIdl } from '../../idl/format.js';
import { parseIdl } from '../../idl/parser.js';
import type { IdlFile } from '../../idl/ast.js';
import { writeFileAtomic } from '../../atomic-write.js';
import { diagnosticsReport, readInputFile } from '../idl-file.js';

/**
 * `-format <file.idl> [-w | -check]`: print the canonical text, with every comment kept. Only syntax
 * matters here, so a file with semantic errors can still be formatted.
 */
export const formatCommand: Command = {
  flag: '-format',
  usage: '-format <file.idl> [-w | -check]',
  summary: 'print the file in canonical layout; -w rewrites it in place, -check fails if it differs',
  async run(args, context) {
    const { positionals, booleans } = parseArgs(args, { booleans: ['-format', '-w', '-check'] });
    if (positionals.length !== 1) throw new UsageError('-format needs exactly one .idl file');
    if (booleans.has('-w') && booleans.has('-check')) throw new UsageError('-w and -check cannot be combined');
    const path = positionals[0];
    const text = await readInputFile(path, context.cwd);
    let file: IdlFile;
    try {
      file = parseIdl(text, path);
    } catch (error) {
      if (error instanceof IdlSyntaxError) throw new CliError(diagnosticsReport(error.diagnostics, withoutBom(text), path));
      throw error;
    }
    const formatted = printIdl(file);
    // The printer keeps every comment; this guards against a printer bug losing one silently.
    const dropped = droppedComments(withoutBom(text), formatted).map(
      (c) => `${path}:${c.line}:${c.column}: warning: formatting would drop this comment`,
    );

    if (booleans.has('-check')) {
      if (formatted === withoutBom(text)) return EXIT_OK;
      context.stderr(`${path} is not formatted; run: idlrpc -format -w ${path}\n`);
      return EXIT_FAILURE;
    }
    if (booleans.has('-w')) {
      if (dropped.length > 0) {
        throw new CliError(
          `${dropped.join('\n')}\n${path} was not changed: formatting would drop ${dropped.length === 1 ? 'this comment' : 'these comments'}; ` +
            'please report this as a formatter bug',
        );
      }
      // Through a symbolic link: the file it points to gets the new text and the link stays a link.
      if (formatted !== withoutBom(text)) await writeFileAtomic(await realpath(resolve(context.cwd, path)), formatted);
      return EXIT_OK;
    }
    if (dropped.length > 0) context.stderr(`${dropped.join('\n')}\n`);
    context.stdout(formatted);
    return EXIT_OK;
  },
};

/** The text positions refer to: without a byte order mark. */
function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
