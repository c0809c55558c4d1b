/**
 * Hostile documents for `idlrpc -openapi-to-idl`, each run in a child under the harness (256 MB
 * heap, hang guard): `$ref`s that try to read files outside the document's folder, devices, FIFOs
 * and huge files. Each must give a located error (a JSON pointer) or a correct result, never a
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
    writeFileSync(join(dir, 'api', 'schemas', 'pet.json'), JSON.stringify({ Pet: { type: 'object', properties: { name: { type: 'string' } } } }));
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
    expectLocatedError(await convert(text, '-ref-root', '/dev'), 'cannot read the file "/dev/zero" named by a $ref: not a regular file', '(at /components/schemas/A)');
  });

  it('refuses a referenced file over the size limit without reading it', { timeout: TIMEOUT }, async () => {
    mkdirSync(join(dir, 'api'), { recursive: true });
    const big = join(dir, 'api', 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 65 * 1024 * 1024); // sparse: no disk used
    const run = await convert(documentText(JSON.stringify({ A: { $ref: 'big.json#/A' } })));
    expectLocatedError(run, 'cannot read the file "big.json" named by a $ref: larger than the limit of 64 MB', '(at /components/schemas/A)');
  });

  it('refuses a root document that is a device, a FIFO or too large', { timeout: TIMEOUT }, async () => {
    const zero = await runHostileCli(['-openapi-to-idl', '/dev/zero', '-output-dir', 'out'], dir);
    expectLocatedError(zero, 'cannot read /dev/zero: not a regular file');
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    expectLocatedError(await runHostileCli(['-openapi-to-idl', 'pipe.yaml', '-output-dir', 'out'], dir), 'cannot read pipe.yaml: not a regular file');
    writeFileSync(join(dir, 'big.json'), '');
    truncateSync(join(dir, 'big.json'), 65 * 1024 * 1024);
    expectLocatedError(await runHostileCli(['-openapi-to-idl', 'big.json', '-output-dir', 'out'], dir), 'cannot read big.json: larger than the limit of 64 MB');
  });
});
