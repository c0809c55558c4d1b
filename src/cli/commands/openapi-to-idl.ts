import { basename, resolve } from 'node:path';
import { CliError, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
// binary-data.js is small (the converter itself is loaded on demand, below).
import { type BinaryDataError, describeBinaryLocation } from '../../openapi/binary-data.js';
import type { MethodNaming, PrefixedMethods } from '../../openapi/index.js';
import { readInputDocument, writeConvertedIdl } from './converted-idl.js';

const USAGE =
  '-openapi-to-idl <openapi.yaml|json> -output-dir <dir> [-strict] [-drop-binary] [-ref-root <dir>]... [-method-names http-method-prefix|operation-id]';

/**
 * `-openapi-to-idl <openapi.yaml|json> -output-dir <dir> [-strict] [-drop-binary] [-ref-root <dir>]... [-method-names <rule>]`:
 * writes `<dir>/<name>.idl`. Warnings go to stderr; with `-strict` any warning fails the command and
 * nothing is written. Binary data fails the command, listing every place, unless `-drop-binary`.
 * `$ref`s may only reach files in the document's folder and the `-ref-root` folders. `-method-names
 * operation-id` names methods by their operationId alone; with the default rule, a hint says so.
 */
export const openApiToIdlCommand: Command = {
  flag: '-openapi-to-idl',
  usage: USAGE,
  summary:
    'convert an OpenAPI 3.0/3.1 document to IDL (-strict: warnings are fatal; -drop-binary: drop binary data; -ref-root: more folders $refs may read; ' +
    '-method-names operation-id: methods named by their operationId alone, not <http method><OperationId>)',
  async run(args, context) {
    // Loaded here, not at start-up: every other command would pay for it.
    const { BinaryDataError, ConversionError, METHOD_NAMINGS, openApiToIdl, readDocumentFile } = await import('../../openapi/index.js');
    const { values, booleans, lists, positionals } = parseArgs(args, {
      values: ['-output-dir', '-method-names'],
      booleans: ['-openapi-to-idl', '-strict', '-drop-binary'],
      lists: ['-ref-root'],
    });
    const outputDir = values.get('-output-dir');
    if (positionals.length !== 1) throw new UsageError('-openapi-to-idl needs exactly one OpenAPI document');
    if (outputDir === undefined) throw new UsageError('-openapi-to-idl needs -output-dir <dir>');
    const methodNames = values.get('-method-names') ?? METHOD_NAMINGS[0];
    if (!(METHOD_NAMINGS as readonly string[]).includes(methodNames)) {
      throw new UsageError(`-method-names must be ${METHOD_NAMINGS.join(' or ')}, not ${methodNames}`);
    }
    const input = positionals[0];
    const { path, text } = readInputDocument(input, context.cwd, readDocumentFile);
    const idlName = `${basename(input).replace(/\.(ya?ml|json)$/i, '')}.idl`;
    let result: ReturnType<typeof openApiToIdl>;
    try {
      result = openApiToIdl(
        { text, fileName: path, refRoots: (lists.get('-ref-root') ?? []).map((root) => resolve(context.cwd, root)) },
        { binary: booleans.has('-drop-binary') ? 'drop' : 'error', idlFileName: idlName, methodNames: methodNames as MethodNaming },
      );
    } catch (error) {
      if (error instanceof BinaryDataError) throw new CliError(binaryReport(input, error));
      if (error instanceof ConversionError) throw new CliError(`${input}: error: ${error.message}`);
      throw error;
    }
    await writeConvertedIdl(input, result, { outputDir, idlName, strict: booleans.has('-strict') }, context);
    if (result.prefixedMethods) context.stderr(methodNamesHint(input, result.prefixedMethods));
    return EXIT_OK;
  },
};

/**
 * Every place of binary data, one `<input>: error: <pointer>: ...` line each, then how to go on:
 * `<input>: rerun with -drop-binary to drop these N members`.
 */
export function binaryReport(input: string, error: BinaryDataError): string {
  const count = error.locations.length;
  const lines = error.locations.map(
    (l) => `${input}: error: ${l.pointer}: binary data (format: binary) cannot be carried by JSON-RPC: ${describeBinaryLocation(l)}`,
  );
  lines.push(`${input}: rerun with -drop-binary to drop ${count === 1 ? 'this member' : `these ${count} members`}`);
  return lines.join('\n');
}

/**
 * After a conversion that named methods `<http method><OperationId>`: that it did, with the first
 * such name, and the flag that keeps operationIds alone.
 */
export function methodNamesHint(input: string, { count, first }: PrefixedMethods): string {
  const others = count === 1 ? '' : ` and ${count - 1} other${count === 2 ? '' : 's'}`;
  return (
    `${input}: hint: methods are named <http method><OperationId> (operationId ${first.operationId} -> ${first.method}${others}); ` +
    '-method-names operation-id keeps each operationId alone where it is unique in its interface\n'
  );
}
