/**
 * Hostile documents for `idlrpc -openapi-to-idl`, each run in a child under the harness (256 MB
 * heap, hang guard): `$ref`s that try to read files outside the document's folder, devices, FIFOs
 * and huge files; and shapes that used to exhaust the stack (deep nesting, long `$ref` and `allOf`
 * chains, huge enums). Each must give a located error (a JSON pointer) or a correct result, never a
 * stack trace or a hang. Inputs are generated here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChildRun, ensureBuilt, hasStackTrace, runHostileCli, tempFolder } from './harness.js';

const TIMEOUT = 90_000;
const SECRET = 'TOP-SECRET-CREDENTIALS';

let dir: string;
let remove: () => void;
beforeAll(() => ensureBuilt(), 300_000);
beforeEach(() => {
  ({ dir, remove } = tempFolder('idlrpc-hostile-converter-'));
});
afterEach(() => remove());

/** An OpenAPI 3.0 document (title `T`) with these component schemas, as JSON text. */
function documentText(schemas: string): string {
  return `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":${schemas}}}`;
}

/** Writes `api/api.json` (the document's folder is `api/`) and converts it into `out/`. */
async function convert(text: string, ...flags: string[]): Promise<ChildRun> {
  mkdirSync(join(dir, 'api'), { recursive: true });
  writeFileSync(join(dir, 'api', 'api.json'), text);
  return runHostileCli(['-openapi-to-idl', 'api/api.json', '-output-dir', 'out', ...flags], dir);
}

/** A failed run: exit 1, the message and pointer on stderr, no stack trace, no hang, nothing written. */
function expectLocatedError(run: ChildRun, ...parts: string[]): void {
  expect(run.hung).toBe(false);
  expect(hasStackTrace(run.stderr)).toBe(false);
  for (const part of parts) expect(run.stderr).toContain(part);
  expect(run.code).toBe(1);
  expect(existsSync(join(dir, 'out'))).toBe(false);
}

/** A successful run: exit 0, no stack trace, no hang; returns the written IDL. */
function expectConverted(run: ChildRun): string {
  expect(run.hung).toBe(false);
  expect(hasStackTrace(run.stderr)).toBe(false);
  expect(run.stderr).not.toContain('error');
  expect(run.code).toBe(0);
  return readFileSync(join(dir, 'out', 'api.idl'), 'utf8');
}

/** `count` matches of `pattern` in `text`. */
function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

describe('$refs to files stay inside the document folder', () => {
  /** A secret beside the document's folder, that no $ref may read. */
  function writeSecret(): string {
    mkdirSync(join(dir, 'secret'), { recursive: true });
    const path = join(dir, 'secret', 'creds.json');
    writeFileSync(path, JSON.stringify({ A: { type: 'object', properties: { [SECRET]: { type: 'string' } } } }));
    return path;
  }

  it.each([
    ['a relative path', '../secret/creds.json#/A'],
    ['a percent-encoded relative path', '%2e%2e/secret/creds.json#/A'],
    ['an absolute path', 'ABSOLUTE#/A'],
  ])('refuses %s leading outside, naming the $ref and its pointer', { timeout: TIMEOUT }, async (_name, ref) => {
    const secret = writeSecret();
    const run = await convert(documentText(JSON.stringify({ A: { $ref: ref.replace('ABSOLUTE', secret) } })));
    expectLocatedError(run, 'names a file outside the folders references may reach', '(at /components/schemas/A)');
    expect(run.stderr).not.toContain(SECRET);
  });

  it('refuses ../../../../etc/passwd without showing any of it', { timeout: TIMEOUT }, async () => {
    const run = await convert(documentText(JSON.stringify({ A: { $ref: '../../../../../../../../etc/passwd' } })));
    expectLocatedError(run, 'outside the folders references may reach', '(at /components/schemas/A)');
    expect(run.stderr).not.toMatch(/root:/);
  });

  it('refuses a symlink inside the folder that points outside (real paths are compared)', { timeout: TIMEOUT }, async () => {
    const secret = writeSecret();
    mkdirSync(join(dir, 'api'), { recursive: true });
    symlinkSync(secret, join(dir, 'api', 'shared.json'));
    const run = await convert(documentText(JSON.stringify({ A: { $ref: 'shared.json#/A' } })));
    expectLocatedError(run, '$ref "shared.json#/A" names a file outside', '(at /components/schemas/A)');
    expect(run.stderr).not.toContain(SECRET);
  });

  it('follows a symlink that stays inside, and reads outside only from a -ref-root folder', { timeout: TIMEOUT }, async () => {
    writeSecret();
    mkdirSync(join(dir, 'api', 'schemas'), { recursive: true });
    writeFileSync(
      join(dir, 'api', 'schemas', 'pet.json'),
      JSON.stringify({ Pet: { type: 'object', properties: { name: { type: 'string' } } } }),
    );
    symlinkSync(join(dir, 'api', 'schemas', 'pet.json'), join(dir, 'api', 'pet-link.json'));
    const text = documentText(JSON.stringify({ Pet: { $ref: 'pet-link.json#/Pet' }, A: { $ref: '../secret/creds.json#/A' } }));
    const run = await convert(text, '-ref-root', 'secret', '-ref-root', 'elsewhere');
    const idl = expectConverted(run);
    expect(idl).toContain('struct Pet {\n    name         string  [optional]\n}');
    // The schema in secret/creds.json, allowed by -ref-root secret.
    expect(idl).toMatch(/^struct A \{\n {4}topSECRETCREDENTIALS +string/m);
  });

  it('refuses a FIFO without waiting for a writer', { timeout: TIMEOUT }, async () => {
    mkdirSync(join(dir, 'api'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'api', 'pipe.json')]);
    const run = await convert(documentText(JSON.stringify({ A: { $ref: 'pipe.json#/A' } })));
    expectLocatedError(run, 'cannot read the file "pipe.json" named by a $ref: not a regular file', '(at /components/schemas/A)');
  });

  it('refuses /dev/zero: outside the folder, and not a regular file even under -ref-root /dev', { timeout: TIMEOUT }, async () => {
    const text = documentText(JSON.stringify({ A: { $ref: '/dev/zero' } }));
    expectLocatedError(await convert(text), 'outside the folders references may reach', '(at /components/schemas/A)');
    expectLocatedError(
      await convert(text, '-ref-root', '/dev'),
      'cannot read the file "/dev/zero" named by a $ref: not a regular file',
      '(at /components/schemas/A)',
    );
  });

  it('refuses a referenced file over the size limit without reading it', { timeout: TIMEOUT }, async () => {
    mkdirSync(join(dir, 'api'), { recursive: true });
    const big = join(dir, 'api', 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 65 * 1024 * 1024); // sparse: no disk used
    const run = await convert(documentText(JSON.stringify({ A: { $ref: 'big.json#/A' } })));
    expectLocatedError(
      run,
      'cannot read the file "big.json" named by a $ref: larger than the limit of 64 MB',
      '(at /components/schemas/A)',
    );
  });

  it('refuses a root document that is a device, a FIFO or too large', { timeout: TIMEOUT }, async () => {
    const zero = await runHostileCli(['-openapi-to-idl', '/dev/zero', '-output-dir', 'out'], dir);
    expectLocatedError(zero, 'cannot read /dev/zero: not a regular file');
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    expectLocatedError(
      await runHostileCli(['-openapi-to-idl', 'pipe.yaml', '-output-dir', 'out'], dir),
      'cannot read pipe.yaml: not a regular file',
    );
    writeFileSync(join(dir, 'big.json'), '');
    truncateSync(join(dir, 'big.json'), 65 * 1024 * 1024);
    expectLocatedError(
      await runHostileCli(['-openapi-to-idl', 'big.json', '-output-dir', 'out'], dir),
      'cannot read big.json: larger than the limit of 64 MB',
    );
  });
});

describe('deep and long shapes convert in linear time, or stop with a located error', () => {
  it('converts schemas nested 1,000 deep, with names cut so the IDL grows linearly', { timeout: TIMEOUT }, async () => {
    const depth = 1000;
    const schema = '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
    const text = documentText(`{"Root":${schema}}`);
    const idl = expectConverted(await convert(text));
    expect(count(idl, /^struct /gm)).toBe(depth);
    // Every hoisted name is at most 256 characters (+ a `_<n>` suffix): no name grows with the depth.
    const longest = Math.max(...[...idl.matchAll(/^struct (\w+)/gm)].map((m) => m[1].length));
    expect(longest).toBeLessThanOrEqual(256 + 5);
    expect(idl.length).toBeLessThan(depth * 1000);
  });

  it('converts a chain of 4,000 $refs to the struct at its end', { timeout: TIMEOUT }, async () => {
    const length = 4000;
    const schemas: Record<string, unknown> = {
      User: { type: 'object', required: ['home'], properties: { home: { $ref: '#/components/schemas/R0' } } },
    };
    for (let i = 0; i < length; i++) schemas[`R${i}`] = { $ref: `#/components/schemas/R${i + 1}` };
    schemas[`R${length}`] = { type: 'object', title: 'Address', properties: { street: { type: 'string' } } };
    const idl = expectConverted(await convert(documentText(JSON.stringify(schemas))));
    expect(idl).toContain('struct User {\n    home         Address\n}');
  });

  it('converts an allOf inheritance chain 2,000 long', { timeout: TIMEOUT }, async () => {
    const length = 2000;
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < length; i++) {
      schemas[`S${i}`] = {
        allOf: [{ $ref: `#/components/schemas/S${i + 1}` }, { type: 'object', properties: { [`p${i}`]: { type: 'string' } } }],
      };
    }
    schemas[`S${length}`] = { type: 'object', properties: { last: { type: 'string' } } };
    const idl = expectConverted(await convert(documentText(JSON.stringify(schemas))));
    expect(count(idl, /^struct S\d+ extends S\d+ \{$/gm)).toBe(length);
    expect(idl).toContain('struct S0 extends S1 {\n    p0           string  [optional]\n}');
  });

  it('converts oneOf nested 2,000 deep and an allOf-of-one chain 2,000 long', { timeout: TIMEOUT }, async () => {
    const depth = 2000;
    const oneOf = '{"oneOf":['.repeat(depth) + '{"type":"integer"}' + ',{"type":"null"}]}'.repeat(depth);
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) schemas[`A${i}`] = { allOf: [{ $ref: `#/components/schemas/A${i + 1}` }] };
    schemas[`A${depth}`] = { type: 'boolean' };
    const body =
      JSON.stringify(schemas).slice(0, -1) +
      `,"Holder":{"type":"object","required":["n","b"],"properties":{"n":${oneOf},"b":{"$ref":"#/components/schemas/A0"}}}}`;
    const idl = expectConverted(await convert(documentText(body)));
    expect(idl).toMatch(/^struct Holder \{\n {4}n +int +\[optional\]\n {4}b +bool\n\}$/m);
  });

  it('converts a chain of 20,000 discriminated oneOfs each naming the next, and 4,000 unions', { timeout: TIMEOUT }, async () => {
    const length = 20_000;
    const schemas: Record<string, unknown> = { S: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } } };
    // Not unions (a member is no struct): each is its first alternative, as before unions.
    for (let i = 0; i < length; i++) {
      schemas[`U${i}`] = {
        oneOf: [{ $ref: `#/components/schemas/U${i + 1}` }, { $ref: '#/components/schemas/S' }],
        discriminator: { propertyName: 'kind' },
      };
    }
    schemas[`U${length}`] = { type: 'boolean' };
    // Unions, each of its own struct.
    for (let i = 0; i < 4000; i++) {
      schemas[`V${i}`] = { oneOf: [{ $ref: `#/components/schemas/W${i}` }], discriminator: { propertyName: 'kind' } };
      schemas[`W${i}`] = { type: 'object', properties: { n: { type: 'integer' } } };
    }
    const idl = expectConverted(await convert(documentText(JSON.stringify(schemas))));
    expect(count(idl, /^union /gm)).toBe(4000);
  });

  it('converts a chain of 4,000 structs each requiring the next', { timeout: TIMEOUT }, async () => {
    const length = 4000;
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < length; i++)
      schemas[`S${i}`] = { type: 'object', required: ['next'], properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    schemas[`S${length}`] = { type: 'object', required: ['back'], properties: { back: { $ref: '#/components/schemas/S0' } } };
    const run = await convert(documentText(JSON.stringify(schemas)));
    const idl = expectConverted(run);
    expect(count(idl, /^struct /gm)).toBe(length + 1);
    // The one cycle (S0 -> ... -> S4000 -> S0) is broken once, where it closes.
    expect(count(run.stderr, /circular reference/g)).toBe(1);
    expect(run.stderr).toContain(`/components/schemas/S${length}/properties/back: circular reference (S0 -> S1 -> `);
  });

  it('converts a string enum of 200,000 values', { timeout: TIMEOUT }, async () => {
    const size = 200_000;
    const values = Array.from({ length: size }, (_, i) => `"value_${i}"`).join(',');
    const idl = expectConverted(await convert(documentText(`{"Big":{"type":"string","enum":[${values}]}}`)));
    expect(count(idl, /^ {4}value_\d+$/gm)).toBe(size);
  });

  it('converts 200,000 enum values that all become the same name (empty, empty_2, ...)', { timeout: TIMEOUT }, async () => {
    const size = 200_000;
    // Distinct strings of punctuation only: each is written `empty`, made unique with a suffix.
    const punctuation = '!#$%&()*+,.';
    const spell = (i: number) =>
      [...i.toString(punctuation.length).padStart(6, '0')].map((d) => punctuation[parseInt(d, punctuation.length)]).join('');
    const values = Array.from({ length: size }, (_, i) => JSON.stringify(spell(i))).join(',');
    const run = await convert(documentText(`{"Marks":{"type":"string","enum":[${values}]}}`));
    const idl = expectConverted(run);
    expect(count(idl, /^ {4}empty(_\d+)?$/gm)).toBe(size);
    expect(idl).toContain(`    empty_${size}\n}`);
  });

  it('converts a numeric enum of 200,000 values (a struct of constants)', { timeout: TIMEOUT }, async () => {
    const size = 200_000;
    const values = Array.from({ length: size }, (_, i) => String(i)).join(',');
    const idl = expectConverted(await convert(documentText(`{"Codes":{"type":"integer","enum":[${values}]}}`)));
    expect(count(idl, /^ {4}v\d+ +int$/gm)).toBe(size);
  });

  it('stops arrays nested 101 deep at the IDL limit with the pointer, and converts 100', { timeout: TIMEOUT }, async () => {
    const nested = (depth: number) =>
      documentText(
        `{"A":{"type":"object","properties":{"a":${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}}}}`,
      );
    const pointer = `/components/schemas/A/properties/a${'/items'.repeat(100)}`;
    expectLocatedError(
      await convert(nested(101)),
      `arrays and maps nested more than 100 levels deep: the IDL allows at most 100 (at ${pointer})`,
    );
    expectLocatedError(await convert(nested(100_000)), 'arrays and maps nested more than 100 levels deep');
    expect(expectConverted(await convert(nested(100)))).toContain(`    a            ${'[]'.repeat(100)}string  [optional]`);
  });

  it('stops maps nested 101 deep the same way', { timeout: TIMEOUT }, async () => {
    const map = `{"A":{"type":"object","properties":{"m":${'{"type":"object","additionalProperties":'.repeat(101)}{"type":"string"}${'}'.repeat(101)}}}}`;
    expectLocatedError(await convert(documentText(map)), `(at /components/schemas/A/properties/m${'/additionalProperties'.repeat(100)})`);
  });

  it('reports YAML nested deeper than its reader can go as invalid YAML, with the place', { timeout: TIMEOUT }, async () => {
    mkdirSync(join(dir, 'api'), { recursive: true });
    const yaml = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents: {schemas: {A: ${'{a: '.repeat(20_000)}x${'}'.repeat(20_000)}}}\n`;
    writeFileSync(join(dir, 'api', 'deep.yaml'), yaml);
    const run = await runHostileCli(['-openapi-to-idl', 'api/deep.yaml', '-output-dir', 'out'], dir);
    expectLocatedError(run, 'invalid YAML: nested too deeply for the YAML reader');
    expect(run.stderr).toMatch(/deep\.yaml:\d+:\d+: invalid YAML/);
  });
});
