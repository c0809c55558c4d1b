/**
 * `idlrpc -plugin go-client -dir <out> -go-module <path> [-go-gen-mod] <file.idl>`: writes a Go
 * client, one package per namespace plus the shared `idlrpc` package (docs/generator.md, "Go").
 * Reached through `-plugin` (generate.ts hands the arguments over). Everything is generated in
 * memory first and written atomically: a failing run leaves the output directory as it was.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { writeFilesAtomic } from '../../atomic-write.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';
import { CliError, EXIT_OK, parseArgs, UsageError, type CliContext } from '../command.js';
import { loadIdlFile } from '../idl-file.js';

/** The usage line of the Go plugin. */
export const GO_CLIENT_USAGE = '-plugin go-client -dir <out> -go-module <import path> [-go-gen-mod] <file.idl>';

/** Runs the go-client plugin with every argument of the command line. */
export async function runGoClientPlugin(args: string[], context: CliContext): Promise<number> {
  const { generateGoFiles, GoGeneratorError } = await import('../../go/index.js');
  const parsed = parseArgs(args, { values: ['-plugin', '-dir', '-go-module'], booleans: ['-go-gen-mod'] });
  const dir = parsed.values.get('-dir');
  if (!dir) throw new UsageError(`-dir <output directory> is required (${GO_CLIENT_USAGE})`);
  const module = parsed.values.get('-go-module');
  if (!module) throw new UsageError(`-go-module <import path of the output directory> is required (${GO_CLIENT_USAGE})`);
  if (parsed.positionals.length !== 1) throw new UsageError(`expected exactly one <file.idl> (${GO_CLIENT_USAGE})`);
  const [idlPath] = parsed.positionals;
  const { model } = await loadIdlFile(idlPath, context.cwd);
  let files: Map<string, string>;
  try {
    files = generateGoFiles(model, { module, sourceFile: basename(idlPath), goMod: parsed.booleans.has('-go-gen-mod') });
  } catch (error) {
    if (error instanceof GoGeneratorError) throw new CliError(`${idlPath}: ${error.message}`);
    throw error;
  }
  const outDir = resolve(context.cwd, dir);
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new CliError(`-dir ${dir} exists and is not a directory`);
  if (files.has('go.mod') && existsSync(resolve(outDir, 'go.mod'))) {
    throw new CliError(`${dir}/go.mod already exists; idlrpc does not overwrite it (remove it or drop -go-gen-mod)`);
  }
  await writeFilesAtomic(outDir, files);
  context.stdout(escapeControlCharacters(`Wrote ${files.size} files to ${dir} (Go module path ${module}) from ${idlPath}\n`));
  return EXIT_OK;
}
