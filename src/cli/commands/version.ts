import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_OK, parseArgs, type Command } from '../command.js';

/** `-version`: the package version. */
export const versionCommand: Command = {
  flag: '-version',
  usage: '-version',
  summary: 'print the version',
  run(args, context) {
    parseArgs(args, { booleans: ['-version'] });
    context.stdout(`idlrpc ${packageVersion()}\n`);
    return EXIT_OK;
  },
};

/** The version in the package.json above this file (in src/ and in dist/src/ alike). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 8; depth++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'unplugin-idl-rpc' && manifest.version) return manifest.version;
    } catch {
      // not here; look one level up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
