import { basename, resolve } from 'node:path';
import { CliError, EXIT_OK, UsageError, parseArgs, type Command } from '../command.js';
import { writeFileAtomic } from '../../atomic-write.js';
import { loadIdlFile } from '../idl-file.js';
import type { OpenApiContact, OpenApiLicense } from '../../openapi/index.js';
import { reportWarnings } from './converted-idl.js';
import { escapeControlCharacters } from '../../idl/visible-text.js';

/**
 * `-idl-to-openapi <file.idl>... -output-dir <dir> [-openapi-version 3.1|3.0] [-server-url <url>] [-license <name> [-license-url <url>]] [-contact-name <name>] [-contact-email <address>] [-contact-url <url>] [-http-status <Error>=<status>,...] [-strict]`: writes `<dir>/<name>.openapi.json` (one file) or `<dir>/openapi.json` (several files, one
 * document). The licence and contact flags fill `info`, which the IDL cannot; `-http-status` lists declared
 * errors under the statuses the server gives them (its `httpStatus` option).
 */
export const idlToOpenApiCommand: Command = {
  flag: '-idl-to-openapi',
  usage:
    '-idl-to-openapi <file.idl>... -output-dir <dir> [-openapi-version 3.1|3.0] [-server-url <url>] [-license <name> [-license-url <url>]] [-contact-name <name>] [-contact-email <address>] [-contact-url <url>] [-http-status <Error>=<status>,...] [-strict]',
  summary:
    'describe the REST binding of IDL files as an OpenAPI document (-server-url: where it is served; -license, -contact-*: info the IDL has not; -http-status: statuses of declared errors, as the server gives them; -strict: warnings are fatal)',
  async run(args, context) {
    // Loaded here, not at start-up: every other command would pay for it.
    const { idlToOpenApi } = await import('../../openapi/index.js');
    const { values, booleans, positionals } = parseArgs(args, {
      values: [
        '-output-dir',
        '-openapi-version',
        '-server-url',
        '-license',
        '-license-url',
        '-contact-name',
        '-contact-email',
        '-contact-url',
        '-http-status',
      ],
      booleans: ['-idl-to-openapi', '-strict'],
    });
    const outputDir = values.get('-output-dir');
    const version = values.get('-openapi-version') ?? '3.1';
    if (positionals.length === 0) throw new UsageError('-idl-to-openapi needs at least one .idl file');
    if (outputDir === undefined) throw new UsageError('-idl-to-openapi needs -output-dir <dir>');
    if (version !== '3.1' && version !== '3.0') throw new UsageError(`-openapi-version must be 3.1 or 3.0, not ${version}`);
    const models = [];
    for (const path of positionals) models.push((await loadIdlFile(path, context.cwd)).model);
    const { document, warnings } = idlToOpenApi(models, {
      version,
      serverUrl: values.get('-server-url'),
      license: licenseOf(values),
      contact: contactOf(values),
      httpStatus: httpStatusOf(values.get('-http-status')),
    });
    const label = positionals.join(', ');
    reportWarnings(label, warnings, context.stderr);
    if (booleans.has('-strict') && warnings.length > 0) {
      throw new CliError(`${label}: ${warnings.length} warning(s) and -strict: nothing written`);
    }
    const name = positionals.length === 1 ? `${basename(positionals[0]).replace(/\.idl$/i, '')}.openapi.json` : 'openapi.json';
    const output = resolve(context.cwd, outputDir, name);
    await writeFileAtomic(output, `${JSON.stringify(document, null, 2)}\n`);
    context.stdout(escapeControlCharacters(`${output}\n`));
    return EXIT_OK;
  },
};

/** `-http-status Unauthorized=401,Forbidden=403` as the `httpStatus` option. */
function httpStatusOf(text: string | undefined): Record<string, number> | undefined {
  if (text === undefined) return undefined;
  const statuses: Record<string, number> = {};
  for (const entry of text.split(',')) {
    const match = /^\s*([A-Za-z_][\w.]*)\s*=\s*(\d{3})\s*$/.exec(entry);
    if (!match) throw new UsageError(`-http-status: "${entry}" is not <Error>=<status> (like Unauthorized=401)`);
    statuses[match[1]] = Number(match[2]);
  }
  return statuses;
}

/** `-license <name>` with an optional `-license-url <url>`. */
export function licenseOf(values: Map<string, string>): OpenApiLicense | undefined {
  const name = values.get('-license');
  const url = values.get('-license-url');
  if (name === undefined) {
    if (url !== undefined) throw new UsageError('-license-url needs -license <name> (OpenAPI requires a licence name)');
    return undefined;
  }
  return url === undefined ? { name } : { name, url };
}

/** `-contact-name`, `-contact-email`, `-contact-url`: any of them makes `info.contact`. */
export function contactOf(values: Map<string, string>): OpenApiContact | undefined {
  const contact: OpenApiContact = {};
  const name = values.get('-contact-name');
  const email = values.get('-contact-email');
  const url = values.get('-contact-url');
  if (name !== undefined) contact.name = name;
  if (email !== undefined) contact.email = email;
  if (url !== undefined) contact.url = url;
  return Object.keys(contact).length > 0 ? contact : undefined;
}
