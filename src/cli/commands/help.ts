import { EXIT_OK, type Command, type CliContext } from '../command.js';

/** `-help`: every command with its usage. */
export const helpCommand: Command = {
  flag: '-help',
  usage: '-help',
  summary: 'show this help',
  run(_args, context) {
    context.stdout(helpText(context));
    return EXIT_OK;
  },
};

/** The help screen, built from the command table so new commands appear by themselves. */
export function helpText(context: Pick<CliContext, 'commands'>): string {
  // Usage and summary on lines of their own: the generator's usage alone is wider than a terminal.
  const lines = context.commands.flatMap((c) => [`  idlrpc ${c.usage}`, `      ${c.summary}`]);
  return [
    'idlrpc: compile IDL files into typed JSON-RPC clients, servers, JSON and OpenAPI',
    '',
    'Usage:',
    ...lines,
    '',
    'Every flag has a double-dash spelling too (--help, --dir out, --dir=out): use it under npx,',
    'which takes single-dash flags for itself (npx idlrpc --help).',
    '',
    'Exit codes: 0 success, 1 failure (errors on stderr), 2 wrong arguments.',
    '',
  ].join('\n');
}
