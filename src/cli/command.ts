/**
 * What a command of `idlrpc` looks like, and the small argument parser they share.
 *
 * Flags are single-dash words (`-dir out`), like the IDL family's generator flags; `--dir` and
 * `-dir=out` are accepted too. A command is picked by its flag (`-validate`) and receives every
 * argument, so other flags may come before or after it.
 */

/** Exit codes: success, a failed command (bad input, I/O error), a usage error. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliIo {
  /**
   * The command's output, printed as it is (IDL, JSON). A message printed here (a path, a status
   * line) goes through `escapeControlCharacters` first, as `main` does for all of stderr.
   */
  stdout(text: string): void;
  stderr(text: string): void;
  /** Directory that relative paths are resolved against. */
  cwd: string;
}

export interface CliContext extends CliIo {
  /** Every registered command, for `-help`. */
  commands: readonly Command[];
}

export interface Command {
  /** The flag that selects the command, e.g. `-validate`. */
  flag: string;
  /** The usage line without the program name, e.g. `-validate <file.idl>...`. */
  usage: string;
  /** One line for `-help`. */
  summary: string;
  /** Runs the command; returns the exit code. Throw UsageError or CliError for failures. */
  run(args: string[], context: CliContext): Promise<number> | number;
}

/** Wrong arguments: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failed command (bad input file, I/O error): printed as is, exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export interface ArgSpec {
  /** Flags that take a value, e.g. `['-dir', '-plugin']`. */
  values?: readonly string[];
  /** Flags that are on or off, e.g. `['-w']`. */
  booleans?: readonly string[];
  /** Flags that take a value and may be given several times, e.g. `['-ref-root']`. */
  lists?: readonly string[];
}

export interface ParsedArgs {
  values: Map<string, string>;
  booleans: Set<string>;
  /** The values of each `lists` flag given, in order. */
  lists: Map<string, string[]>;
  positionals: string[];
}

/**
 * Splits arguments into flag values, boolean flags and positionals. `--` ends the flags; a lone
 * `-` is a positional (stdin/stdout by convention).
 *
 * @throws UsageError for an unknown flag, a missing value or a repeated flag (other than `lists`).
 */
export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const values = new Map<string, string>();
  const booleans = new Set<string>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const normalized = arg.startsWith('--') ? arg.slice(1) : arg;
    const equals = normalized.indexOf('=');
    const flag = equals === -1 ? normalized : normalized.slice(0, equals);
    if (spec.values?.includes(flag) || spec.lists?.includes(flag)) {
      if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
      const value = equals === -1 ? args[++i] : normalized.slice(equals + 1);
      if (value === undefined || (equals === -1 && value.startsWith('-') && value !== '-')) {
        throw new UsageError(`${flag} needs a value`);
      }
      if (spec.lists?.includes(flag)) lists.set(flag, [...(lists.get(flag) ?? []), value]);
      else values.set(flag, value);
    } else if (spec.booleans?.includes(flag) && equals === -1) {
      booleans.add(flag);
    } else {
      throw new UsageError(`unknown flag ${arg}`);
    }
  }
  return { values, booleans, lists, positionals };
}
