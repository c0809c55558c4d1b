/**
 * `idlrpc`: picks the command named by the first command flag among the arguments and runs it.
 * Failures go to stderr: exit 1 for a failed command, 2 for wrong arguments (with the usage line).
 */
import { CliError, EXIT_FAILURE, EXIT_USAGE, UsageError, type CliContext, type CliIo, type Command } from './command.js';
import { commands as defaultCommands } from './commands/index.js';
import { helpText } from './commands/help.js';
import { escapeControlCharacters } from '../idl/visible-text.js';

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function main(
  argv: readonly string[],
  io: CliIo = processIo(),
  commands: readonly Command[] = defaultCommands,
): Promise<number> {
  // Every message goes to stderr, and may quote a file name or a file's text: escaped (control and
  // bidirectional characters), so that no input can drive the terminal it is printed on.
  const context: CliContext = { ...io, stderr: (text) => io.stderr(escapeControlCharacters(text)), commands };
  const command = findCommand(argv, commands);
  if (!command) {
    const unknown = argv.find((arg) => arg.startsWith('-'));
    const reason = argv.length === 0 ? 'no command given' : unknown ? `unknown command ${unknown}` : 'no command flag given';
    context.stderr(`idlrpc: ${reason}\n\n${helpText(context)}`);
    return EXIT_USAGE;
  }
  try {
    return await command.run([...argv], context);
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr(`idlrpc: ${error.message}\nusage: idlrpc ${command.usage}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CliError) {
      context.stderr(`${error.message}\n`);
      return EXIT_FAILURE;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    context.stderr(`idlrpc: unexpected failure of ${command.flag}: ${detail}\n`);
    return EXIT_FAILURE;
  }
}

/** The first argument that is a command flag (`-x` or `--x`, optionally `=value`) selects it. */
function findCommand(argv: readonly string[], commands: readonly Command[]): Command | undefined {
  for (const arg of argv) {
    const flag = (arg.startsWith('--') ? arg.slice(1) : arg).split('=')[0];
    const command = commands.find((c) => c.flag === flag);
    if (command) return command;
  }
  return undefined;
}

function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
  };
}
