/**
 * Linters pass with nothing to explain: Redocly's `recommended` rules and Spectral's `spectral:oas`
 * rules find no error in the document of checkout.idl, of the all-constructs IDL and of the
 * three-file fixture (a root importing two namespaces), of the unions fixture and of @readonly methods (reads
 * over GET), in 3.0 and 3.1;
 * the only warnings are the ones the IDL cannot answer (licence, contact), and those go away when the
 * options (API), the flags (CLI) or `openapi.info` (plugin, dev server) give them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, type OpenApiVersion } from '../../src/openapi/index.js';
import { openApiAsset } from '../../src/plugin/openapi-asset.js';
import { resolveOptions } from '../../src/plugin/options.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const multiFile = join(root, 'test', 'idl', 'fixtures', 'multi-file');
const fixtures = {
  // The family's reference checkout.idl (the playground's has a stream method since, whose item
  // struct OpenAPI 3.0 references only under the x-itemSchema extension).
  checkout: join(root, 'test', 'idl', 'fixtures', 'family', 'checkout.idl'),
  everything: join(root, 'test', 'generator', 'fixtures', 'everything.idl'),
  // shop.idl imports common.idl and inventory.idl (which imports common.idl too).
  'multi-file': join(multiFile, 'shop.idl'),
  // Unions: oneOf with discriminator and mapping, nullable copies in 3.0.
  unions: join(root, 'test', 'openapi', 'fixtures', 'unions.idl'),
  // @readonly methods: each a POST and a GET with query parameters, ETag and 304.
  reads: join(root, 'test', 'openapi', 'fixtures', 'reads.idl'),
};
/** Further `.idl` files the plugin's build loaded besides the fixture (here: the files it imports). */
const alsoLoaded: Partial<Record<string, string[]>> = {
  'multi-file': [join(multiFile, 'common.idl'), join(multiFile, 'inventory.idl')],
};
const versions: OpenApiVersion[] = ['3.0', '3.1'];
const license = { name: 'MIT', url: 'https://opensource.org/license/mit' };
const contact = { name: 'Shop team', email: 'shop@example.com', url: 'https://example.com/shop' };
const modelOf = (file: string) => compileIdl(readFileSync(file, 'utf8'), file);

/** Every document under test, by name: bare and with licence and contact, through each entry point. */
const documents = new Map<string, object>();
for (const [fixture, file] of Object.entries(fixtures)) {
  for (const version of versions) {
    documents.set(`${fixture} ${version} bare`, idlToOpenApi([modelOf(file)], { version }).document);
    documents.set(`${fixture} ${version} complete`, idlToOpenApi([modelOf(file)], { version, license, contact }).document);
    // What the plugin writes next to the bundle and the dev server serves (both use openApiAsset).
    const plugin = resolveOptions({ openapi: { version, info: { license, contact } } }).openapi;
    const loaded = [...(alsoLoaded[fixture] ?? []), file].map(modelOf);
    if (plugin) documents.set(`${fixture} ${version} plugin`, JSON.parse(openApiAsset(loaded, plugin).source));
  }
}

let folder = '';
/** Spectral's findings by document name, from one run of its CLI over every document. */
const spectral = new Map<string, string[]>();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'linters-'));
  const files: string[] = [];
  for (const version of versions) {
    // The CLI's document, with the licence and contact flags.
    const out = join(folder, `cli-${version}`);
    await run(process.execPath, [
      join(root, 'dist', 'src', 'cli', 'bin.js'),
      '-idl-to-openapi',
      fixtures.checkout,
      '-output-dir',
      out,
      '-openapi-version',
      version,
      '-license',
      license.name,
      '-license-url',
      license.url,
      '-contact-name',
      contact.name,
      '-contact-email',
      contact.email,
    ]);
    documents.set(`checkout ${version} cli`, JSON.parse(readFileSync(join(out, 'checkout.openapi.json'), 'utf8')));
  }
  for (const [name, document] of documents) {
    const file = join(folder, `${name.replaceAll(' ', '-')}.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));
    files.push(file);
    spectral.set(name, []);
  }
  const ruleset = join(folder, 'ruleset.json');
  writeFileSync(ruleset, JSON.stringify({ extends: ['spectral:oas'] }));
  const bin = join(root, 'node_modules', '.bin', 'spectral');
  // Exit code 1 means findings of error severity; the JSON output is read either way.
  const { stdout } = await run(bin, ['lint', '--ruleset', ruleset, '--format', 'json', '--quiet', ...files]).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const results = JSON.parse(stdout) as { code: string; severity: number; source: string; path: string[]; message: string }[];
  const severities = ['error', 'warn', 'info', 'hint'];
  for (const result of results) {
    const name = [...documents.keys()].find((n) => result.source.endsWith(`${n.replaceAll(' ', '-')}.json`))!;
    spectral.get(name)!.push(`${severities[result.severity]} ${result.code} ${result.path.join('.')}: ${result.message}`);
  }
}, 120_000);

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function redocly(document: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/virtual/openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
}

describe.each(Object.keys(fixtures))('linters on the document of %s', (fixture) => {
  describe.each(versions)('OpenAPI %s', (version) => {
    it('Redocly recommended: no error; without a licence only the licence warning', async () => {
      expect(await redocly(documents.get(`${fixture} ${version} bare`)!)).toEqual([
        'warn info-license #/info: Info object should contain `license` field.',
      ]);
    });

    it('Spectral spectral:oas: no error; without a contact only the contact warning', () => {
      expect(spectral.get(`${fixture} ${version} bare`)).toEqual(['warn info-contact info: Info object must have "contact" object.']);
    });

    it.each(['complete', 'plugin'])('both: nothing at all with licence and contact given (%s)', async (how) => {
      const document = documents.get(`${fixture} ${version} ${how}`)!;
      expect(await redocly(document)).toEqual([]);
      expect(spectral.get(`${fixture} ${version} ${how}`)).toEqual([]);
    });
  });
});

describe.each(versions)('linters on the CLI document (OpenAPI %s)', (version) => {
  it('nothing at all with -license, -license-url, -contact-name and -contact-email', async () => {
    const document = documents.get(`checkout ${version} cli`) as { info: object };
    expect(document.info).toMatchObject({ license, contact: { name: contact.name, email: contact.email } });
    expect(await redocly(document)).toEqual([]);
    expect(spectral.get(`checkout ${version} cli`)).toEqual([]);
  });
});
