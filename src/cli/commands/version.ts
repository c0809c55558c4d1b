import { ownManifest } from '../../own-package.js';
import { EXIT_OK, parseArgs, type Command } from '../command.js';

/** `-version`: the package version. */
export const versionCommand: Command = {
  flag: '-version',
  usage: '-version',
  summary: 'print the version',
  run(args, context) {
    parseArgs(args, { booleans: ['-version'] });
    context.stdout(`idlrpc ${ownManifest().version}\n`);
    return EXIT_OK;
  },
};
