/**
 * `-dts <file.idl|dir>...`: writes `<file>.idl.d.ts` and its declaration map beside each IDL file,
 * exactly as the bundler plugin does, so `tsc` and editors type `import ... from './x.idl'` (and
 * "Go to Definition" lands in the IDL) without running a bundler (in CI, say). Every file is
 * compiled before anything is written: one broken file writes nothing.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeIfChanged } from '../../atomic-write.js';
import { declarationFiles } from '../../codegen/declaration-files.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { diagnosticsReport, MAX_INPUT_BYTES, readInputFile } from '../idl-file.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';

export const dtsCommand: Command = {
  flag: '-dts',
  usage: '-dts [-check] [-no-map] <file.idl|dir>...',
  summary:
    'write the <file>.idl.d.ts and .d.ts.map the bundler plugin writes (for a directory: every .idl in it); -check fails if one is stale; -no-map writes no declaration map',
  async run(args, context) {
    // Loaded here, not at start-up: every other command would pay for it.
    const { compileIdlSource, IdlModuleError } = await import('../../codegen/idl-module.js');
    const { positionals, booleans } = parseArgs(args, { booleans: ['-dts', '-check', '-no-map'] });
    const withMap = !booleans.has('-no-map');
    if (positionals.length === 0) throw new UsageError('-dts needs at least one .idl file or directory');
    const files: string[] = [];
    for (const input of positionals) files.push(...(await idlFilesOf(input, context.cwd)));
    if (files.length === 0) throw new CliError(`no .idl files in ${positionals.join(', ')}`);

    /** Each file to write: where, as shown to the user, and its text. */
    const outputs: { file: string; shown: string; text: string }[] = [];
    const failures: { file: string; report: string }[] = [];
    // Files without a namespace that another file imports are merged into it: they are no module
    // and get no .d.ts (compiled alone, they would miss their namespace).
    const merged = new Map<string, string>();
    for (const shown of files) {
      const source = await readInputFile(shown, context.cwd);
      const file = path.resolve(context.cwd, shown);
      try {
        const compiled = compileIdlSource(source, shown, { cwd: context.cwd, maxImportedBytes: MAX_INPUT_BYTES });
        for (const [output, text] of declarationFiles(file, compiled, withMap)) {
          outputs.push({ file: output, shown: shown + output.slice(file.length), text });
        }
        for (const imported of compiled.model.files.slice(1)) {
          if (imported.namespace === undefined) merged.set(path.resolve(context.cwd, imported.fileName), shown);
        }
      } catch (error) {
        if (!(error instanceof IdlModuleError)) throw error;
        failures.push({ file, report: diagnosticsReport(error.diagnostics, error.sources, shown) });
      }
    }
    const reported = failures.filter((failure) => !merged.has(failure.file));
    if (reported.length > 0) throw new CliError(`${reported.map((f) => f.report).join('\n\n')}\n\nno .d.ts files written`);
    for (const [file, importer] of merged) {
      if (files.some((shown) => path.resolve(context.cwd, shown) === file)) {
        context.stdout(escapeControlCharacters(`${path.relative(context.cwd, file)}: merged into ${importer}, no .d.ts\n`));
      }
    }

    if (booleans.has('-check')) {
      const stale = [];
      for (const output of outputs) {
        if ((await readCurrent(output.file)) !== output.text) stale.push(output.shown);
      }
      if (stale.length === 0) {
        context.stdout(`${outputs.length} file${outputs.length === 1 ? ' is' : 's are'} up to date\n`);
        return EXIT_OK;
      }
      context.stderr(`stale or missing (run idlrpc -dts): ${stale.join(', ')}\n`);
      return EXIT_FAILURE;
    }
    for (const output of outputs) {
      const wrote = await writeIfChanged(output.file, output.text);
      context.stdout(escapeControlCharacters(`${output.shown}: ${wrote ? 'written' : 'up to date'}\n`));
    }
    return EXIT_OK;
  },
};

/** The argument itself for a file; every `.idl` below it (sorted) for a directory. */
async function idlFilesOf(input: string, cwd: string): Promise<string[]> {
  const info = await stat(path.resolve(cwd, input)).catch(() => undefined);
  if (!info?.isDirectory()) return [input];
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(path.resolve(cwd, dir), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && entry.name.endsWith('.idl')) found.push(child);
    }
  };
  await walk(input);
  return found;
}

function readCurrent(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}
