import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseArgs, UsageError, type Command } from '../command.js';
import { loadIdlFile } from '../idl-file.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';

/** Default `-runs`: generated requests per method and binding. */
const DEFAULT_RUNS = 50;
/** Default `-rate`: requests per second. */
const DEFAULT_RATE = 50;

/**
 * `-conform <url> <file.idl>`: contract tests of a running server (docs/conform.md). Exit 0 when every
 * answer keeps the IDL and the protocol, 1 on any violation, 2 when the check cannot run (wrong
 * arguments, an IDL that cannot be read or compiled, a server that cannot be reached).
 */
export const conformCommand: Command = {
  flag: '-conform',
  usage:
    '-conform <url> <file.idl> [-all] [-rest] [-methods <Interface.method>,...] [-runs <n>] [-seed <n>] [-rate <requests/s>] [-header "<Name>: <value>"]...',
  summary:
    'contract-test a running server: generated requests over JSON-RPC (and REST with -rest), every answer checked against the IDL; exit 1 on a violation',
  async run(args, context) {
    const { values, booleans, lists, positionals } = parseArgs(args, {
      values: ['-methods', '-runs', '-seed', '-rate'],
      booleans: ['-conform', '-all', '-rest'],
      lists: ['-header'],
    });
    if (positionals.length !== 2) throw new UsageError("-conform needs the server's JSON-RPC URL and one .idl file");
    const [url, file] = positionals;
    checkUrl(url);
    const runs = wholeNumber(values.get('-runs'), '-runs', DEFAULT_RUNS, 1, 100_000);
    const seed = wholeNumber(values.get('-seed'), '-seed', Math.floor(Math.random() * 2 ** 32), 0, 2 ** 32 - 1);
    const rate = positiveNumber(values.get('-rate'), '-rate', DEFAULT_RATE);
    const headerFlags = lists.get('-header') ?? [];
    const headers = Object.fromEntries(headerFlags.map(headerOf));
    const methods = values
      .get('-methods')
      ?.split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (methods !== undefined && methods.length === 0) throw new UsageError('-methods needs at least one <Interface>.<method>');

    // Loaded here, not at start-up: the other commands do not pay for it.
    const { runConformance, formatConformReport, ServerUnreachableError, UnknownMethodError } = await import('../../conform/index.js');
    const { toIdlJson } = await import('../../idl/json.js');
    const { idlToOpenApi } = await import('../../openapi/index.js');
    // Exit 1 means "violations"; an IDL that cannot be read is 2, like a server that cannot be reached.
    let model: Awaited<ReturnType<typeof loadIdlFile>>['model'];
    try {
      ({ model } = await loadIdlFile(file, context.cwd));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      context.stderr(`${error.message}\n`);
      return EXIT_USAGE;
    }
    const idl = toIdlJson(model);
    try {
      const report = await runConformance({
        url,
        idl,
        openApi: idlToOpenApi([model]).document,
        methods,
        all: booleans.has('-all'),
        rest: booleans.has('-rest'),
        runs,
        seed,
        headers,
        rate,
      });
      const secretHeaders = Object.keys(headers);
      context.stdout(
        escapeControlCharacters(formatConformReport(report, { url, file, seed, runs, rate, rest: booleans.has('-rest'), secretHeaders })),
      );
      return report.violations.length > 0 ? EXIT_FAILURE : EXIT_OK;
    } catch (error) {
      if (error instanceof UnknownMethodError) throw new UsageError(error.message);
      if (!(error instanceof ServerUnreachableError)) throw error;
      context.stderr(`idlrpc: cannot reach ${url}: ${error.message}\n`);
      return EXIT_USAGE;
    }
  },
};

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`'${url}' is not a URL: give the server's JSON-RPC endpoint, e.g. http://localhost:8080/`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`'${url}' is not an http or https URL`);
}

function wholeNumber(text: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not '${text}'`);
  return value;
}

function positiveNumber(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new UsageError(`${flag} must be a number above 0 (requests per second), not '${text}'`);
  return value;
}

/** `-header "Name: value"` as a [name, value] pair. */
function headerOf(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`-header must be "<Name>: <value>", not '${text}'`);
  const value = text.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new UsageError(`-header ${name}: the value may not hold line breaks`);
  return [name, value];
}
