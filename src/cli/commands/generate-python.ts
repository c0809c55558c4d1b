/**
 * `idlrpc -plugin py-client -dir <out> [-py-package <name>] <file.idl>`: writes a Python package of
 * typed clients (docs/generator.md, "Python") to `<out>/<package>/`. Generated in memory first, then
 * written atomically: a failing run leaves the output directory as it was.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { writeFilesAtomic } from '../../atomic-write.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';
import { CliError, EXIT_OK, parseArgs, UsageError, type CliContext } from '../command.js';
import { loadIdlFile } from '../idl-file.js';

/** Runs `-plugin py-client` (the `-plugin` command hands it every argument). */
export async function generatePythonClient(args: string[], context: CliContext): Promise<number> {
  const { generatePythonFiles, isFreePythonName } = await import('../../python/index.js');
  const parsed = parseArgs(args, { values: ['-plugin', '-dir', '-py-package'] });
  const dir = parsed.values.get('-dir');
  if (!dir) throw new UsageError('-dir <output directory> is required');
  const packageName = parsed.values.get('-py-package');
  if (packageName !== undefined && (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(packageName) || !isFreePythonName(packageName))) {
    throw new UsageError(`-py-package '${packageName}' is not a Python package name (letters, digits, underscores; no keyword or builtin)`);
  }
  if (parsed.positionals.length !== 1) throw new UsageError('expected exactly one <file.idl>');
  const [idlPath] = parsed.positionals;
  const { model } = await loadIdlFile(idlPath, context.cwd);
  // The base name keeps the generated headers the same wherever the command runs.
  const files = generatePythonFiles(model, { sourceFile: basename(idlPath), packageName });
  const outDir = resolve(context.cwd, dir);
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new CliError(`-dir ${dir} exists and is not a directory`);
  await writeFilesAtomic(outDir, files);
  const folder = [...files.keys()][0].split('/')[0];
  context.stdout(escapeControlCharacters(`Wrote ${files.size} files to ${dir}/${folder} (Python package ${folder}) from ${idlPath}\n`));
  return EXIT_OK;
}
