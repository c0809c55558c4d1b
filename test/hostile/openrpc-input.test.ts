/**
 * Hostile documents for `idlrpc -openrpc-to-idl`, each run in a child under the harness (256 MB
 * heap, hang guard): references that try to read other files, reference loops and long chains, an
 * alias bomb, documents of tens of thousands of methods, params and errors, and shapes nested deep.
 * Each must give a located error (a JSON pointer) with nothing written, or a correct result; never
 * a stack trace or a hang. Inputs are generated here.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChildRun, ensureBuilt, hasStackTrace, runHostileCli, tempFolder } from './harness.js';

const TIMEOUT = 90_000;
const SECRET = 'TOP-SECRET-CREDENTIALS';

let dir: string;
let remove: () => void;
beforeAll(() => ensureBuilt(), 300_000);
beforeEach(() => {
  ({ dir, remove } = tempFolder('idlrpc-hostile-openrpc-'));
});
afterEach(() => remove());

/** An OpenRPC document (title `T`) as JSON text. */
function documentText(methods: unknown[], components: object = {}): string {
  return JSON.stringify({ openrpc: '1.3.2', info: { title: 'T', version: '1' }, methods, components });
}

/** Writes `api/<name>` and converts it into `out/`. */
async function convert(text: string, name = 'api.json'): Promise<ChildRun> {
  mkdirSync(join(dir, 'api'), { recursive: true });
  writeFileSync(join(dir, 'api', name), text);
  return runHostileCli(['-openrpc-to-idl', `api/${name}`, '-output-dir', 'out'], dir);
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
function expectConverted(run: ChildRun, name = 'api'): string {
  expect(run.hung).toBe(false);
  expect(hasStackTrace(run.stderr)).toBe(false);
  expect(run.stderr).not.toContain(': error:');
  expect(run.code).toBe(0);
  return readFileSync(join(dir, 'out', `${name}.idl`), 'utf8');
}

describe('references stay inside the document', () => {
  it.each([
    ['a file beside it', '../secret/creds.json#/A'],
    ['an absolute path', '/etc/passwd'],
    ['a file: URL', 'file:///etc/passwd'],
  ])('refuses a $ref to %s without reading it', { timeout: TIMEOUT }, async (_what, ref) => {
    mkdirSync(join(dir, 'secret'), { recursive: true });
    writeFileSync(
      join(dir, 'secret', 'creds.json'),
      JSON.stringify({ A: { type: 'object', properties: { [SECRET]: { type: 'string' } } } }),
    );
    const run = await convert(documentText([{ name: 'S.a', params: [], result: { name: 'r', schema: { $ref: ref } } }]));
    expectLocatedError(run, `external $ref "${ref}" is not supported`, '(at /methods/0/result/schema)');
    expect(run.stderr).not.toContain(SECRET);
    expect(run.stderr).not.toMatch(/root:/);
  });

  it('refuses a loop of content descriptor $refs, and follows a chain of 50,000', { timeout: TIMEOUT }, async () => {
    const loop = { A: { $ref: '#/components/contentDescriptors/B' }, B: { $ref: '#/components/contentDescriptors/A' } };
    expectLocatedError(
      await convert(documentText([{ name: 'S.a', params: [{ $ref: '#/components/contentDescriptors/A' }] }], { contentDescriptors: loop })),
      'the $ref chain leads back to itself (at /methods/0/params/0)',
    );
    const chain: Record<string, unknown> = { D50000: { name: 'p', required: true, schema: { type: 'integer' } } };
    for (let i = 0; i < 50_000; i++) chain[`D${i}`] = { $ref: `#/components/contentDescriptors/D${i + 1}` };
    const idl = expectConverted(
      await convert(
        documentText([{ name: 'S.a', params: [{ $ref: '#/components/contentDescriptors/D0' }] }], { contentDescriptors: chain }),
      ),
    );
    expect(idl).toContain('a(p int) bool [optional]');
  });

  it('refuses a YAML alias bomb', { timeout: TIMEOUT }, async () => {
    const lines = ['openrpc: 1.3.2', 'info: {title: T, version: "1"}', 'methods: []', 'x0: &x0 [a, a, a, a, a, a, a, a, a, a]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `x${i}: &x${i} [${Array(10)
          .fill(`*x${i - 1}`)
          .join(', ')}]`,
      );
    expectLocatedError(await convert(`${lines.join('\n')}\n`, 'api.yaml'), 'invalid YAML');
  });
});

describe('large and deep documents convert in bounded memory, or fail located', () => {
  it('converts 20,000 methods without a dot, each renamed into the title interface and warned once', { timeout: TIMEOUT }, async () => {
    const methods = Array.from({ length: 20_000 }, (_, i) => ({
      name: `m_${i}`,
      params: [],
      result: { name: 'r', schema: { type: 'integer' } },
    }));
    const run = await convert(documentText(methods));
    const idl = expectConverted(run);
    expect(idl.match(/^ {4}m_\d+\(\) int$/gm)).toHaveLength(20_000);
    expect(run.stderr.match(/has no dot/g)).toHaveLength(20_000);
  });

  it('converts 20,000 methods that raise one of 20,000 errors each, and 2,000 params of one method', { timeout: TIMEOUT }, async () => {
    const methods = Array.from({ length: 20_000 }, (_, i) => ({
      name: `S.m${i}`,
      params: [],
      result: { name: 'r', schema: { type: 'integer' } },
      errors: [{ code: i + 1, message: `failure ${i}` }],
    }));
    const params = Array.from({ length: 2_000 }, (_, i) => ({ name: `p${i}`, required: true, schema: { type: 'string' } }));
    methods.push({ name: 'S.wide', params, result: { name: 'r', schema: { type: 'integer' } }, errors: [] } as never);
    const idl = expectConverted(await convert(documentText(methods)));
    expect(idl).toContain('20000 Failure19999 "failure 19999"');
    expect(idl).toContain('p1999 string) int');
  });

  it('converts a param schema nested 1,000 objects deep', { timeout: TIMEOUT }, async () => {
    let schema: object = { type: 'string' };
    for (let i = 0; i < 1_000; i++) schema = { type: 'object', required: ['a'], properties: { a: schema } };
    const idl = expectConverted(await convert(documentText([{ name: 'S.a', params: [{ name: 'p', required: true, schema }] }])));
    expect(idl).toContain('a(p A_p) bool [optional]');
  });

  it('stops a result of arrays nested 101 deep at the IDL limit, with the pointer', { timeout: TIMEOUT }, async () => {
    let schema: object = { type: 'string' };
    for (let i = 0; i < 101; i++) schema = { type: 'array', items: schema };
    expectLocatedError(
      await convert(documentText([{ name: 'S.a', params: [], result: { name: 'r', schema } }])),
      'arrays and maps nested more than 100 levels deep',
      '(at /methods/0/result/schema/items',
    );
  });

  it('converts a method name of a million characters (no dot), warned', { timeout: TIMEOUT }, async () => {
    const run = await convert(
      documentText([{ name: 'x'.repeat(1_000_000), params: [], result: { name: 'r', schema: { type: 'integer' } } }]),
    );
    expect(expectConverted(run)).toContain(`interface T {\n    ${'x'.repeat(1_000_000)}() int\n}`);
  });
});
