import { resolve } from 'node:path';
import { EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { toIdlJson } from '../../idl/json.js';
import { writeFileAtomic } from '../../atomic-write.js';
import { loadIdlFile } from '../idl-file.js';

/** `-to-json <out.json> <file.idl>`: the JSON form that `rpc-idl` serves (docs/protocol.md §2). */
export const toJsonCommand: Command = {
  flag: '-to-json',
  usage: '-to-json <out.json|-> <file.idl>',
  summary: "write the IDL's JSON form (what rpc-idl serves); '-' prints it",
  async run(args, context) {
    const { values, positionals } = parseArgs(args, { values: ['-to-json'] });
    const output = values.get('-to-json');
    if (output === undefined || positionals.length !== 1) {
      throw new UsageError('-to-json needs an output file and one .idl file');
    }
    const { model } = await loadIdlFile(positionals[0], context.cwd);
    const json = `${JSON.stringify(toIdlJson(model), null, 2)}\n`;
    if (output === '-') context.stdout(json);
    else await writeFileAtomic(resolve(context.cwd, output), json);
    return EXIT_OK;
  },
};
