/**
 * `idlrpc -openrpc-to-idl`, run in-process: the written IDL, warnings on stderr, `-strict`, and
 * failures (malformed documents, external references, binary data, wrong arguments) that exit
 * non-zero and write nothing.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../cli/run-main.js';
import { EXAMPLES_DIR } from './example-documents.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idlrpc-openrpc-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runMain(dir, argv);

/** Writes `name` with a document of these methods. */
function writeDocument(name: string, methods: unknown[], extra: object = {}): void {
  writeFileSync(join(dir, name), JSON.stringify({ openrpc: '1.3.2', info: { title: 'T', version: '1' }, methods, ...extra }));
}

const clean = [{ name: 'Pets.count', params: [], result: { name: 'n', schema: { type: 'integer' } } }];

describe('idlrpc -openrpc-to-idl', () => {
  it('writes <name>.idl into the output directory and prints its path', async () => {
    writeDocument('pets.json', clean);
    const result = await run('-openrpc-to-idl', 'pets.json', '-output-dir', 'out');
    expect(result).toEqual({ code: 0, stdout: `${join(dir, 'out', 'pets.idl')}\n`, stderr: '' });
    expect(readFileSync(join(dir, 'out', 'pets.idl'), 'utf8')).toBe('namespace t\n\ninterface Pets {\n    count() int\n}\n');
  });

  it('prints warnings with their JSON pointers (a renamed method among them); -strict makes them fatal and writes nothing', async () => {
    copyFileSync(join(EXAMPLES_DIR, 'simple-math-openrpc.json'), join(dir, 'math.json'));
    const lenient = await run('-openrpc-to-idl', 'math.json', '-output-dir', 'out');
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain(
      'math.json: warning: /methods/0/name: method "addition" has no dot: servers split method names at the last dot, so it becomes method addition of interface SimpleMath (after info.title), called "SimpleMath.addition"\n',
    );
    expect(readFileSync(join(dir, 'out', 'math.idl'), 'utf8')).toContain('interface SimpleMath {');
    const strict = await run('-openrpc-to-idl', 'math.json', '-output-dir', 'strict-out', '-strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/math\.json: \d+ warning\(s\) and -strict: nothing written/);
    expect(existsSync(join(dir, 'strict-out'))).toBe(false);
  });

  it.each([
    [
      'a malformed document',
      [{ name: 'S.a', params: [{ name: 'p' }] }],
      'api.json: error: the schema of a param "p" is missing (at /methods/0/params/0/schema)',
    ],
    [
      'an external $ref',
      [{ name: 'S.a', params: [], result: { name: 'r', schema: { $ref: '../secret.json#/A' } } }],
      'api.json: error: external $ref "../secret.json#/A" is not supported: an OpenRPC document is converted with references into itself only ("#/components/...") (at /methods/0/result/schema)',
    ],
  ])('fails on %s with the JSON pointer and the problem, exit 1, nothing written', async (_what, methods, message) => {
    writeDocument('api.json', methods);
    const result = await run('-openrpc-to-idl', 'api.json', '-output-dir', 'out');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${message}\n` });
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('fails on text that is no JSON, and on a file that is not there', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"openrpc": "1.3.2", ');
    const broken = await run('-openrpc-to-idl', 'broken.json', '-output-dir', 'out');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^broken\.json: error: .*broken\.json: invalid JSON: /);
    const missing = await run('-openrpc-to-idl', 'missing.json', '-output-dir', 'out');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read missing.json');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('fails on binary data, listing it, unless -drop-binary', async () => {
    writeDocument('bin.json', [
      { name: 'S.put', params: [{ name: 'file', required: true, schema: { type: 'string', format: 'binary' } }] },
    ]);
    const strict = await run('-openrpc-to-idl', 'bin.json', '-output-dir', 'out');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('bin.json: rerun with -drop-binary to drop this member');
    expect(existsSync(join(dir, 'out'))).toBe(false);
    const dropped = await run('-openrpc-to-idl', 'bin.json', '-output-dir', 'out', '-drop-binary');
    expect(dropped.code).toBe(0);
    expect(readFileSync(join(dir, 'out', 'bin.idl'), 'utf8')).toBe('namespace t\n\ninterface S {\n}\n');
    expect(dropped.stderr).toContain(
      'bin.json: warning: /methods/0/params/0/schema: binary data (format: binary) cannot be carried by JSON-RPC; method S.put dropped',
    );
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await run('-openrpc-to-idl', 'a.json')).code).toBe(2);
    expect((await run('-openrpc-to-idl', '-output-dir', 'out')).code).toBe(2);
    expect((await run('-openrpc-to-idl', 'a.json', 'b.json', '-output-dir', 'out')).code).toBe(2);
  });

  it('is listed by -help', async () => {
    expect((await run('-help')).stdout).toContain('-openrpc-to-idl <openrpc.json|yaml> -output-dir <dir> [-strict] [-drop-binary]');
  });
});
