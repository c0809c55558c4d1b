import { basename } from 'node:path';
import { CliError, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { readInputDocument, writeConvertedIdl } from './converted-idl.js';
import { binaryReport } from './openapi-to-idl.js';

const USAGE = '-openrpc-to-idl <openrpc.json|yaml> -output-dir <dir> [-strict] [-drop-binary]';

/**
 * `-openrpc-to-idl <openrpc.json|yaml> -output-dir <dir> [-strict] [-drop-binary]`: writes
 * `<dir>/<name>.idl`. Warnings go to stderr (a method whose wire name changes among them); with
 * `-strict` any warning fails the command and nothing is written. A malformed document fails with
 * the JSON pointer of the problem. Binary data fails the command, listing every place, unless `-drop-binary`.
 */
export const openRpcToIdlCommand: Command = {
  flag: '-openrpc-to-idl',
  usage: USAGE,
  summary: 'convert an OpenRPC 1.x document to IDL (-strict: warnings are fatal; -drop-binary: drop binary data)',
  async run(args, context) {
    // Loaded here, not at start-up: every other command would pay for it.
    const [{ openRpcToIdl }, { BinaryDataError, ConversionError, readDocumentFile }] = await Promise.all([
      import('../../openrpc/openrpc-to-idl.js'),
      import('../../openapi/index.js'),
    ]);
    const { values, booleans, positionals } = parseArgs(args, {
      values: ['-output-dir'],
      booleans: ['-openrpc-to-idl', '-strict', '-drop-binary'],
    });
    const outputDir = values.get('-output-dir');
    if (positionals.length !== 1) throw new UsageError('-openrpc-to-idl needs exactly one OpenRPC document');
    if (outputDir === undefined) throw new UsageError('-openrpc-to-idl needs -output-dir <dir>');
    const input = positionals[0];
    const { path, text } = readInputDocument(input, context.cwd, readDocumentFile);
    const idlName = `${basename(input).replace(/\.(ya?ml|json)$/i, '')}.idl`;
    let result: ReturnType<typeof openRpcToIdl>;
    try {
      result = openRpcToIdl({ text, fileName: path }, { binary: booleans.has('-drop-binary') ? 'drop' : 'error', idlFileName: idlName });
    } catch (error) {
      if (error instanceof BinaryDataError) throw new CliError(binaryReport(input, error));
      if (error instanceof ConversionError) throw new CliError(`${input}: error: ${error.message}`);
      throw error;
    }
    await writeConvertedIdl(input, result, { outputDir, idlName, strict: booleans.has('-strict') }, context);
    return EXIT_OK;
  },
};
