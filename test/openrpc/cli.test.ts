/**
 * `idlrpc -idl-to-openrpc`, run in-process: the file it writes, its flags, and failures that exit
 * non-zero and write nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../cli/run-main.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idlrpc-openrpc-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runMain(dir, argv);

const idl = 'namespace shop\ninterface Store {\n    find(name string) string\n}\n';

describe('idlrpc -idl-to-openrpc', () => {
  it('writes openrpc.json into the output directory', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    const result = await run('-idl-to-openrpc', 'shop.idl', '-output-dir', 'api');
    expect(result).toEqual({ code: 0, stdout: `${join(dir, 'api', 'openrpc.json')}\n`, stderr: '' });
    const text = readFileSync(join(dir, 'api', 'openrpc.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const document = JSON.parse(text);
    expect(document.openrpc).toBe('1.3.2');
    expect(document.methods.map((m: { name: string }) => m.name)).toEqual(['Store.find']);
    expect(document.servers).toBeUndefined();
  });

  it('-server-url writes servers when absolute, and refuses a relative one (usage error, nothing written)', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    expect((await run('-idl-to-openrpc', 'shop.idl', '-output-dir', 'out', '-server-url', 'https://api.example.com/rpc')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'openrpc.json'), 'utf8')).servers).toEqual([{ url: 'https://api.example.com/rpc' }]);
    const relative = await run('-idl-to-openrpc', 'shop.idl', '-output-dir', 'rel', '-server-url', '/rpc');
    expect(relative.code).toBe(2);
    expect(relative.stderr).toContain('-server-url must be an absolute URI');
    expect(readdirSync(dir).sort()).toEqual(['out', 'shop.idl']);
  });

  it('fills info.license and info.contact from the flags', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    const flags = ['-license', 'MIT', '-license-url', 'https://opensource.org/license/mit', '-contact-email', 'api@example.com'];
    expect((await run('-idl-to-openrpc', 'shop.idl', '-output-dir', 'out', ...flags)).code).toBe(0);
    const { info } = JSON.parse(readFileSync(join(dir, 'out', 'openrpc.json'), 'utf8'));
    expect(info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/license/mit' });
    expect(info.contact).toEqual({ email: 'api@example.com' });
  });

  it('reports IDL errors with file:line:column, exits non-zero and writes nothing', async () => {
    writeFileSync(join(dir, 'bad.idl'), 'namespace bad\nstruct A {\n    b Missing\n}\n');
    const result = await run('-idl-to-openrpc', 'bad.idl', '-output-dir', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad.idl:3:');
    expect(readdirSync(dir)).toEqual(['bad.idl']);
  });

  it('needs a file and -output-dir', async () => {
    const none = await run('-idl-to-openrpc', '-output-dir', 'out');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('-idl-to-openrpc needs at least one .idl file');
    writeFileSync(join(dir, 'shop.idl'), idl);
    const noDir = await run('-idl-to-openrpc', 'shop.idl');
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toContain('-idl-to-openrpc needs -output-dir <dir>');
    expect(readdirSync(dir)).toEqual(['shop.idl']);
  });

  it('puts several IDL files into one openrpc.json', async () => {
    writeFileSync(join(dir, 'a.idl'), 'namespace a\ninterface A {\n    ping() string\n}\n');
    writeFileSync(join(dir, 'b.idl'), 'namespace b\ninterface B {\n    pong() string\n}\n');
    expect((await run('-idl-to-openrpc', 'a.idl', 'b.idl', '-output-dir', 'out')).code).toBe(0);
    const document = JSON.parse(readFileSync(join(dir, 'out', 'openrpc.json'), 'utf8'));
    expect(document.methods.map((m: { name: string }) => m.name)).toEqual(['A.ping', 'B.pong']);
  });
});
