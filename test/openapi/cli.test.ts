/**
 * `idlrpc -openapi-to-idl` and `idlrpc -idl-to-openapi`, run in-process: output files, warnings on
 * stderr, `-strict`, and failures that exit non-zero and write nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../cli/run-main.js';
import { openApiDocument } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idlrpc-openapi-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runMain(dir, argv);

const clean = openApiDocument({ schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } });
const warned = openApiDocument({
  paths: {
    '/p': {
      get: {
        operationId: 'p',
        parameters: [{ name: 'X-Id', in: 'header', schema: { type: 'string' } }],
        responses: { '204': { description: '' } },
      },
    },
  },
});

describe('idlrpc -openapi-to-idl', () => {
  it('writes <name>.idl into the output directory', async () => {
    writeFileSync(join(dir, 'pets.json'), JSON.stringify(clean));
    const result = await run('-openapi-to-idl', 'pets.json', '-output-dir', 'out');
    expect(result).toEqual({ code: 0, stdout: `${join(dir, 'out', 'pets.idl')}\n`, stderr: '' });
    expect(readFileSync(join(dir, 'out', 'pets.idl'), 'utf8')).toBe('namespace t\n\nstruct Pet {\n    name         string\n}\n');
  });

  it('prints warnings with their JSON pointers, and -strict makes them fatal without writing', async () => {
    writeFileSync(join(dir, 'api.yaml'), JSON.stringify(warned));
    const lenient = await run('-openapi-to-idl', 'api.yaml', '-output-dir', 'out');
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe(
      'api.yaml: warning: /paths/~1p/get/parameters/0: header parameter "X-Id" dropped: the IDL has no headers\n' +
        'api.yaml: hint: methods are named <http method><OperationId> (operationId p -> getP); ' +
        '-method-names operation-id keeps each operationId alone where it is unique in its interface\n',
    );
    const strict = await run('-openapi-to-idl', 'api.yaml', '-output-dir', 'strict-out', '-strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('api.yaml: 1 warning(s) and -strict: nothing written');
    expect(readdirSync(dir)).not.toContain('strict-out');
  });

  it('-method-names operation-id keeps operationIds alone, without the hint; a wrong rule is a usage error', async () => {
    const pets = openApiDocument({
      paths: {
        '/pets/{petId}': {
          get: {
            operationId: 'getPetById',
            parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '204': { description: '' } },
          },
        },
        '/pets': { get: { operationId: 'listPets', responses: { '204': { description: '' } } } },
      },
    });
    writeFileSync(join(dir, 'pets.json'), JSON.stringify(pets));
    const byRule = await run('-openapi-to-idl', 'pets.json', '-output-dir', 'rule');
    expect(byRule.code).toBe(0);
    expect(byRule.stderr).toBe(
      'pets.json: hint: methods are named <http method><OperationId> (operationId getPetById -> getGetPetById and 1 other); ' +
        '-method-names operation-id keeps each operationId alone where it is unique in its interface\n',
    );
    expect(readFileSync(join(dir, 'rule', 'pets.idl'), 'utf8')).toContain('    getGetPetById(petId string) bool [optional]\n');

    const alone = await run('-openapi-to-idl', 'pets.json', '-output-dir', 'alone', '--method-names=operation-id');
    expect(alone).toEqual({ code: 0, stdout: `${join(dir, 'alone', 'pets.idl')}\n`, stderr: '' });
    const idl = readFileSync(join(dir, 'alone', 'pets.idl'), 'utf8');
    expect(idl).toContain('    getPetById(petId string) bool [optional]\n');
    expect(idl).toContain('    listPets() bool [optional]\n');

    const wrong = await run('-openapi-to-idl', 'pets.json', '-output-dir', 'wrong', '-method-names', 'operationId');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('-method-names must be http-method-prefix or operation-id, not operationId');
    expect(readdirSync(dir)).not.toContain('wrong');
  });

  it('fails on documents it cannot convert, naming the problem, and writes nothing', async () => {
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }));
    const result = await run('-openapi-to-idl', 'old.json', '-output-dir', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'old.json: error: Swagger 2.0 documents are not supported: convert the document to OpenAPI 3.0 or 3.1 first (at /swagger)\n',
    );
    expect(readdirSync(dir)).toEqual(['old.json']);
  });

  it('drops binary data only with -drop-binary', async () => {
    const binary = openApiDocument({ schemas: { F: { type: 'object', properties: { data: { type: 'string', format: 'binary' } } } } });
    writeFileSync(join(dir, 'bin.json'), JSON.stringify(binary));
    expect((await run('-openapi-to-idl', 'bin.json', '-output-dir', 'out')).code).toBe(1);
    const dropped = await run('-openapi-to-idl', 'bin.json', '-output-dir', 'out', '-drop-binary');
    expect(dropped.code).toBe(0);
    expect(readFileSync(join(dir, 'out', 'bin.idl'), 'utf8')).toBe('namespace t\n\nstruct F {\n}\n');
  });

  describe('on the real petstore documents (@readme/oas-examples)', () => {
    const examples = dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));
    const cannot = 'binary data (format: binary) cannot be carried by JSON-RPC';
    it.each([
      [
        '3.0/yaml/petstore.yaml',
        [
          [
            '/paths/~1pet~1{petId}~1uploadImage/post/requestBody/content/multipart~1form-data/schema/properties/file',
            'field file of struct uploadFileBody',
          ],
        ],
      ],
      [
        '3.1/yaml/petstore.yaml',
        [
          [
            '/paths/~1pet~1{petId}~1uploadImage/post/requestBody/content/application~1octet-stream/schema',
            'operation POST /pet/{petId}/uploadImage',
          ],
        ],
      ],
      [
        '3.0/yaml/file-uploads.yaml',
        [
          ['/paths/~1anything~1image-png/post/requestBody/content/image~1png/schema', 'operation POST /anything/image-png'],
          [
            '/paths/~1anything~1multipart-formdata/post/requestBody/content/multipart~1form-data/schema/properties/documentFile',
            'field documentFile of struct anythingMultipartFormdataBody',
          ],
          [
            '/paths/~1anything~1multipart-formdata/put/requestBody/content/multipart~1form-data/schema/properties/filename/items',
            'field filename of struct anythingMultipartFormdataBody_2',
          ],
        ],
      ],
    ])(
      '%s: lists every binary location and how to go on, writes nothing; -drop-binary drops them with warnings',
      async (example, places) => {
        const name = basename(example);
        writeFileSync(join(dir, name), readFileSync(join(examples, example)));
        const failed = await run('-openapi-to-idl', name, '-output-dir', 'idl');
        expect(failed.code).toBe(1);
        const hint = places.length === 1 ? 'this member' : `these ${places.length} members`;
        expect(failed.stderr).toBe(
          places.map(([pointer, member]) => `${name}: error: ${pointer}: ${cannot}: ${member}\n`).join('') +
            `${name}: rerun with -drop-binary to drop ${hint}\n`,
        );
        expect(readdirSync(dir)).toEqual([name]);

        const dropped = await run('-openapi-to-idl', name, '-output-dir', 'idl', '-drop-binary');
        expect(dropped.code).toBe(0);
        for (const [pointer, member] of places)
          expect(dropped.stderr).toContain(`${name}: warning: ${pointer}: ${cannot}; ${member} dropped\n`);
        expect(readdirSync(join(dir, 'idl'))).toEqual([name.replace('.yaml', '.idl')]);

        // Under -strict the drops (warnings) are fatal.
        const strict = await run('-openapi-to-idl', name, '-output-dir', 'strict', '-drop-binary', '-strict');
        expect(strict.code).toBe(1);
        expect(readdirSync(dir)).not.toContain('strict');
      },
    );
  });

  it('reports usage errors with exit code 2', async () => {
    expect((await run('-openapi-to-idl', 'a.json')).code).toBe(2);
    expect((await run('-openapi-to-idl', '-output-dir', 'out')).code).toBe(2);
    expect((await run('-openapi-to-idl', 'missing.json', '-output-dir', 'out')).stderr).toContain('cannot read missing.json: no such file');
  });
});

describe('idlrpc -idl-to-openapi', () => {
  const idl = `namespace shop
interface Store {
    find(default string) string
}
`;

  it('writes <name>.openapi.json, 3.1 by default and 3.0 on request', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    const v31 = await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'out');
    expect(v31.code).toBe(0);
    expect(v31.stderr).toContain(
      'shop.idl: warning: /paths/~1Store~1find/post/requestBody/content/application~1json/schema/properties/default: parameter default',
    );
    expect(JSON.parse(readFileSync(join(dir, 'out', 'shop.openapi.json'), 'utf8')).openapi).toBe('3.1.0');
    const v30 = await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'out30', '-openapi-version', '3.0');
    expect(v30.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out30', 'shop.openapi.json'), 'utf8')).openapi).toBe('3.0.3');
  });

  it('-server-url (or --server-url) writes servers; without it the server is `/` (the address of the document)', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    expect((await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'plain')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'plain', 'shop.openapi.json'), 'utf8')).servers).toEqual([{ url: '/' }]);
    expect((await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'out', '--server-url', 'https://api.example.com/rpc')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'shop.openapi.json'), 'utf8')).servers).toEqual([
      { url: 'https://api.example.com/rpc' },
    ]);
  });

  it('makes warnings fatal with -strict, and rejects unknown versions', async () => {
    writeFileSync(join(dir, 'shop.idl'), idl);
    const strict = await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'out', '-strict');
    expect(strict.code).toBe(1);
    expect(readdirSync(dir)).toEqual(['shop.idl']);
    const version = await run('-idl-to-openapi', 'shop.idl', '-output-dir', 'out', '-openapi-version', '2.0');
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('-openapi-version must be 3.1 or 3.0, not 2.0');
  });

  it('reports IDL errors with file:line:column and writes nothing', async () => {
    writeFileSync(join(dir, 'bad.idl'), 'namespace bad\nstruct A {\n    b Missing\n}\n');
    const result = await run('-idl-to-openapi', 'bad.idl', '-output-dir', 'out');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad.idl:3:');
    expect(readdirSync(dir)).toEqual(['bad.idl']);
  });

  it('puts several IDL files into one openapi.json', async () => {
    writeFileSync(join(dir, 'a.idl'), 'namespace a\ninterface A {\n    ping() string\n}\n');
    writeFileSync(join(dir, 'b.idl'), 'namespace b\ninterface B {\n    pong() string\n}\n');
    expect((await run('-idl-to-openapi', 'a.idl', 'b.idl', '-output-dir', 'out')).code).toBe(0);
    const document = JSON.parse(readFileSync(join(dir, 'out', 'openapi.json'), 'utf8'));
    expect(Object.keys(document.paths)).toEqual(['/A/ping', '/B/pong']);
  });
});
