import { resolve } from 'node:path';
import { writeFileAtomic } from '../../atomic-write.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';
import { CliError, EXIT_OK, type Command, parseArgs, UsageError } from '../command.js';
import { loadIdlFile } from '../idl-file.js';
import { contactOf, licenseOf } from './idl-to-openapi.js';
import { reportWarnings } from './converted-idl.js';

/** The file the command writes in the output folder (the name the plugin and the servers use too). */
export const OPENRPC_FILE_NAME = 'openrpc.json';

/**
 * `-idl-to-openrpc <file.idl>... -output-dir <dir> [-server-url <absolute url>] [-license <name> [-license-url <url>]] [-contact-name <name>] [-contact-email <address>] [-contact-url <url>] [-strict]`:
 * writes `<dir>/openrpc.json`, the OpenRPC document of the JSON-RPC API (docs/openrpc.md), one
 * document for all the files.
 */
export const idlToOpenRpcCommand: Command = {
  flag: '-idl-to-openrpc',
  usage:
    '-idl-to-openrpc <file.idl>... -output-dir <dir> [-server-url <absolute url>] [-license <name> [-license-url <url>]] [-contact-name <name>] [-contact-email <address>] [-contact-url <url>] [-strict]',
  summary:
    'describe the JSON-RPC API of IDL files as an OpenRPC document, openrpc.json (-server-url: the absolute address of the endpoint; -license, -contact-*: info the IDL has not; -strict: warnings are fatal)',
  async run(args, context) {
    // Loaded here, not at start-up: every other command would pay for it.
    const { idlToOpenRpc } = await import('../../openrpc/index.js');
    const { values, booleans, positionals } = parseArgs(args, {
      values: ['-output-dir', '-server-url', '-license', '-license-url', '-contact-name', '-contact-email', '-contact-url'],
      booleans: ['-idl-to-openrpc', '-strict'],
    });
    const outputDir = values.get('-output-dir');
    if (positionals.length === 0) throw new UsageError('-idl-to-openrpc needs at least one .idl file');
    if (outputDir === undefined) throw new UsageError('-idl-to-openrpc needs -output-dir <dir>');
    const serverUrl = values.get('-server-url');
    if (serverUrl !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(serverUrl)) {
      throw new UsageError(
        `-server-url must be an absolute URI (OpenRPC requires one), like https://api.example.com/rpc, not ${serverUrl}`,
      );
    }
    const models = [];
    for (const path of positionals) models.push((await loadIdlFile(path, context.cwd)).model);
    const { document, warnings } = idlToOpenRpc(models, { serverUrl, license: licenseOf(values), contact: contactOf(values) });
    const label = positionals.join(', ');
    reportWarnings(label, warnings, context.stderr);
    if (booleans.has('-strict') && warnings.length > 0) {
      throw new CliError(`${label}: ${warnings.length} warning(s) and -strict: nothing written`);
    }
    const output = resolve(context.cwd, outputDir, OPENRPC_FILE_NAME);
    await writeFileAtomic(output, `${JSON.stringify(document, null, 2)}\n`);
    context.stdout(escapeControlCharacters(`${output}\n`));
    return EXIT_OK;
  },
};
