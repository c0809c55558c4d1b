/**
 * A module printed in parts (`GenerateModuleOptions.partImport`, what the plugin hands bundlers for a
 * large IDL): the index re-exports the three parts, the parts import one another without a cycle
 * (types <- client, server), and what an app imports is what the module in one piece exports.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { generateModule, type GenerateModuleOptions } from '../../src/codegen/index.js';
import { compileIdlSource } from '../../src/codegen/idl-module.js';
import { compileIdl } from '../../src/idl/index.js';
import { checkoutIdl, everythingIdl, freshDir, repoRoot } from './helpers.js';

const PARTS = ['types', 'client', 'server'] as const;

function generate(idlFile: string, extra: Partial<GenerateModuleOptions> = {}) {
  const model = compileIdl(readFileSync(idlFile, 'utf8'), path.basename(idlFile));
  return generateModule(model, {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: path.basename(idlFile),
    ...extra,
  });
}

/** The specifiers a module's import and re-export statements name. */
function importedSpecifiers(js: string): string[] {
  return [...js.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+(['"])(.+?)\1;/gms)].map((match) => match[2]);
}

describe.each([
  ['checkout', checkoutIdl],
  ['everything', everythingIdl],
])('%s', (name, idlFile) => {
  const partFile = (part: string) => `./${name}-${part}.mjs`;
  const whole = generate(idlFile);
  const inParts = generate(idlFile, { partImport: partFile });

  test('the index re-exports the three parts, in order, and nothing else', () => {
    expect(inParts.parts?.map(({ part }) => part)).toEqual(PARTS);
    expect(importedSpecifiers(inParts.js)).toEqual(PARTS.map(partFile));
    expect(inParts.js.replace(/^\/\/.*\n|^\/\*.*\*\/\n/gm, '')).toBe(PARTS.map((part) => `export * from "${partFile(part)}";\n`).join(''));
  });

  test('types import no other part and client does not import server: no cycle orders evaluation', () => {
    const importsOf = (part: string) => {
      const js = inParts.parts?.find((candidate) => candidate.part === part)?.js ?? '';
      return importedSpecifiers(js).filter((specifier) => specifier.startsWith(`./${name}-`));
    };
    expect(importsOf('types')).toEqual([]);
    expect(importsOf('client')).not.toContain(partFile('server'));
    expect(importsOf('server')).not.toContain(partFile('server'));
  });

  test('an app importing the index gets the exports of the module in one piece, working', async () => {
    const dir = freshDir(`module-parts-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'whole.mjs'), whole.js);
    writeFileSync(path.join(dir, 'index.mjs'), inParts.js);
    for (const { part, js } of inParts.parts ?? []) writeFileSync(path.join(dir, partFile(part)), js);
    const load = (file: string) => import(pathToFileURL(path.join(dir, file)).href) as Promise<Record<string, unknown>>;
    const [fromWhole, fromParts] = await Promise.all([load('whole.mjs'), load('index.mjs')]);
    expect(Object.keys(fromParts).sort()).toEqual(Object.keys(fromWhole).sort());
    for (const key of Object.keys(fromWhole)) expect([key, typeof fromParts[key]]).toEqual([key, typeof fromWhole[key]]);
    // Every method's checks decide alike on a few values of every kind.
    type Check = { check(value: unknown): boolean };
    const decisions = (module: Record<string, unknown>) =>
      Object.entries(module.validators as Record<string, { params: Check[]; result: Check }>).map(([method, { params, result }]) => [
        method,
        [...params, result].map((check) => [{}, { id: 'x' }, 'text', 12, null, []].map((value) => check.check(value))),
      ]);
    expect(decisions(fromParts)).toEqual(decisions(fromWhole));
    expect(decisions(fromWhole).length).toBeGreaterThan(0);
  });
});

test("each part's source map points its IDL names into the IDL file", () => {
  const file = path.join(repoRoot, 'playground/checkout.idl');
  const compiled = compileIdlSource(readFileSync(file, 'utf8'), file, {}, { partImport: (part) => `./checkout.idl?part=${part}` });
  expect(compiled.parts?.map(({ part }) => part)).toEqual(PARTS);
  for (const { part, js, jsMap } of compiled.parts ?? []) {
    const map = JSON.parse(jsMap) as { sources: string[]; mappings: string; file: string };
    expect([part, map.file, map.sources]).toEqual([part, 'checkout.idl', ['checkout.idl']]);
    // As many lines in the map as in the part, and names mapped on some of them.
    expect(map.mappings.split(';').length).toBeLessThanOrEqual(js.split('\n').length);
    expect(map.mappings.split(';').filter((line) => line !== '').length).toBeGreaterThan(5);
  }
});
