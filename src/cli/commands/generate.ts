/**
 * `idlrpc -plugin ts-client-server -dir <out> [-ts-module esm-node|esm-bundler|cjs] [-ts-emit ts|js+dts]
 *  [-ts-gen-package-json] [-ts-gen-tsconfig] [-source-map] <file.idl>`: writes a standalone typed
 * client and server (with `-source-map`, a map beside each generated module, into the IDL; with
 * `-ts-emit js+dts`, JavaScript and declarations instead of TypeScript).
 *
 * Everything is generated in memory first; the files are then written atomically, so a failing run
 * (bad IDL, unknown plugin, an existing package.json) leaves the output directory as it was.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ModuleStyle, OutputEmit } from '../../codegen/index.js';
import { writeFilesAtomic } from '../../atomic-write.js';
import { CliError, EXIT_OK, parseArgs, UsageError, type CliContext, type Command } from '../command.js';
import { generatePythonClient } from './generate-python.js';
import { loadIdlFile } from '../idl-file.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';
import { runGoClientPlugin } from './go-client.js';

/** The generation plugins this command knows. */
export const GENERATOR_PLUGINS = ['ts-client-server', 'py-client', 'go-client'] as const;

/** Generators of other languages, each in its own file: they take every argument of the command. */
const LANGUAGE_PLUGINS = new Map<string, (args: string[], context: CliContext) => Promise<number>>([
  ['py-client', generatePythonClient],
  ['go-client', runGoClientPlugin],
]);

export const generateCommand: Command = {
  flag: '-plugin',
  usage:
    '-plugin ts-client-server -dir <out> [-ts-module <style>] [-ts-emit ts|js+dts] [-ts-gen-package-json] [-ts-gen-tsconfig] [-source-map] <file.idl> | -plugin py-client -dir <out> [-py-package <name>] <file.idl> | -plugin go-client -dir <out> -go-module <path> [-go-gen-mod] <file.idl>',
  summary:
    'generate a typed TypeScript client and server with the runtime they need (styles: esm-node, esm-bundler, cjs; -ts-emit js+dts: JavaScript with declarations, which an app type-checks faster)',
  async run(args, context) {
    const languagePlugin = LANGUAGE_PLUGINS.get(pluginArgument(args));
    if (languagePlugin) return languagePlugin(args, context);
    // Loaded here, not at start-up: every other command would pay for the generator and TypeBox.
    const { CodegenError, generateTypeScriptFiles, MODULE_STYLES, OUTPUT_EMITS } = await import('../../codegen/index.js');
    const { relativeSourcePath } = await import('../../codegen/source-map.js');
    const parsed = parseArgs(args, {
      values: ['-plugin', '-dir', '-ts-module', '-ts-emit'],
      booleans: ['-ts-gen-package-json', '-ts-gen-tsconfig', '-source-map'],
    });
    const plugin = parsed.values.get('-plugin');
    if (!plugin || !(GENERATOR_PLUGINS as readonly string[]).includes(plugin)) {
      throw new UsageError(`unknown plugin '${plugin ?? ''}' (available: ${GENERATOR_PLUGINS.join(', ')})`);
    }
    const dir = parsed.values.get('-dir');
    if (!dir) throw new UsageError('-dir <output directory> is required');
    const style = parsed.values.get('-ts-module') ?? 'esm-node';
    if (!(MODULE_STYLES as readonly string[]).includes(style)) {
      throw new UsageError(`unknown -ts-module '${style}' (expected ${MODULE_STYLES.join(', ')})`);
    }
    const emit = parsed.values.get('-ts-emit') ?? 'ts';
    if (!(OUTPUT_EMITS as readonly string[]).includes(emit)) {
      throw new UsageError(`unknown -ts-emit '${emit}' (expected ${OUTPUT_EMITS.join(', ')})`);
    }
    if (emit === 'js+dts' && style === 'cjs')
      throw new UsageError('-ts-emit js+dts writes ES modules: use -ts-module esm-node or esm-bundler');
    if (parsed.positionals.length !== 1) throw new UsageError('expected exactly one <file.idl>');
    const [idlPath] = parsed.positionals;

    const { model } = await loadIdlFile(idlPath, context.cwd);
    const outDir = resolve(context.cwd, dir);
    let files: Map<string, string>;
    try {
      files = generateTypeScriptFiles(model, {
        moduleStyle: style as ModuleStyle,
        emit: emit as OutputEmit,
        // The base name keeps the generated headers the same wherever the command runs.
        sourceFile: basename(idlPath),
        packageJson: parsed.booleans.has('-ts-gen-package-json'),
        tsconfig: parsed.booleans.has('-ts-gen-tsconfig'),
        sourceMaps: parsed.booleans.has('-source-map')
          ? {
              // The maps name the IDL files relative to where each generated file is written.
              sourcePath: (idlFile, generatedFile) =>
                relativeSourcePath(dirname(join(outDir, generatedFile)), resolve(context.cwd, idlFile)),
            }
          : undefined,
      });
    } catch (error) {
      if (error instanceof CodegenError) throw new CliError(`${idlPath}: ${error.message}`);
      throw error;
    }
    if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new CliError(`-dir ${dir} exists and is not a directory`);
    for (const manifest of ['package.json', 'tsconfig.json']) {
      if (files.has(manifest) && existsSync(resolve(outDir, manifest))) {
        throw new CliError(`${dir}/${manifest} already exists; idlrpc does not overwrite it (remove it or drop the flag)`);
      }
    }
    await writeFilesAtomic(outDir, files);
    const written = emit === 'ts' ? style : `${style}, ${emit}`;
    context.stdout(escapeControlCharacters(`Wrote ${files.size} files to ${dir} (${written}) from ${idlPath}\n`));
    return EXIT_OK;
  },
};

/** The value of `-plugin` (any spelling parseArgs accepts), before the arguments are parsed for it. */
function pluginArgument(args: readonly string[]): string {
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const flag = args[i].replace(/^--/, '-');
    if (flag === '-plugin') return args[i + 1] ?? '';
    if (flag.startsWith('-plugin=')) return flag.slice('-plugin='.length);
  }
  return '';
}
