/**
 * Reading OpenAPI documents: YAML and JSON, `$ref`s to other local files, and the documents that
 * are refused with a ConversionError carrying a JSON pointer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { BinaryDataError, ConversionError, openApiToIdl } from '../../src/openapi/index.js';
import { expectChecksClean, openApiDocument } from './helpers.js';

const fixtures = join(import.meta.dirname, 'fixtures');

/** The ConversionError a conversion throws. */
function conversionError(run: () => unknown): ConversionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConversionError) return error;
    throw error;
  }
  throw new Error('expected a ConversionError');
}

describe('OpenAPI input', () => {
  const multiFileIdl = `namespace multi_file

struct Owner {
    pet          Pet
    common       Common  [optional]
}

// A pet, defined in another file.
struct Pet {
    name         string
    kind         Kind    [optional]
    choice       string  [optional]
}

enum Kind {
    cat
    dog
}

struct Common {
    note         string  [optional]
}

interface pets {
    getListPets() []Pet
}
`;

  it('follows $refs to other local files relative to the document, and points warnings into them', () => {
    const path = join(fixtures, 'multi-file', 'api.yaml');
    const result = openApiToIdl({ text: readFileSync(path, 'utf8'), fileName: path });
    expect(result.idl).toBe(multiFileIdl);
    expect(result.warnings).toEqual([
      {
        pointer: 'schemas/pet.yaml#/Pet/properties/choice/oneOf',
        message:
          'oneOf with 2 alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (string) is used',
      },
    ]);
    expectChecksClean(result.idl);
  });

  it('resolves file $refs of a parsed document against baseDir', () => {
    const text = readFileSync(join(fixtures, 'multi-file', 'api.yaml'), 'utf8');
    const result = openApiToIdl({ document: parseYaml(text), baseDir: join(fixtures, 'multi-file') });
    expect(result.idl).toBe(multiFileIdl);
  });

  it('reads JSON text with or without a .json name, and YAML text without a name', () => {
    const text = JSON.stringify(openApiDocument({ schemas: { A: { type: 'object', properties: {} } } }));
    const expected = 'namespace t\n\nstruct A {\n}\n';
    expect(openApiToIdl({ text, fileName: 'a.json' }).idl).toBe(expected);
    expect(openApiToIdl({ text: `\uFEFF${text}` }).idl).toBe(expected);
    // Without a file name, YAML text is read as YAML.
    expect(
      openApiToIdl({
        text: 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents: {schemas: {A: {type: object, properties: {}}}}\n',
      }).idl,
    ).toBe(expected);
  });

  it('refuses Swagger 2.0, naming the version', () => {
    const error = conversionError(() =>
      openApiToIdl({ text: 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n', fileName: 'old.yaml' }),
    );
    expect(error.pointer).toBe('/swagger');
    expect(error.message).toContain('Swagger 2.0 documents are not supported');
  });

  it('refuses other OpenAPI versions and documents without a version', () => {
    expect(conversionError(() => openApiToIdl({ document: { openapi: '4.0.0', info: {}, paths: {} } })).message).toContain(
      'OpenAPI 4.0.0 is not supported: only 3.0.x and 3.1.x',
    );
    expect(conversionError(() => openApiToIdl({ document: { info: {}, paths: {} } })).message).toContain(
      '"openapi" version field is missing',
    );
    expect(conversionError(() => openApiToIdl({ document: [1, 2] })).message).toContain('top level is not an object');
    expect(conversionError(() => openApiToIdl({ document: { openapi: '3.0.0', paths: [] } })).pointer).toBe('/paths');
  });

  it('refuses remote $refs with the pointer of the reference', () => {
    for (const remote of ['https://example.com/schemas.json#/Pet', 'http://x/y.yaml', '//cdn.example.com/a.json', 'file:///etc/a.json']) {
      const document = openApiDocument({ schemas: { A: { type: 'object', properties: { b: { $ref: remote } } } } });
      const error = conversionError(() => openApiToIdl({ document }));
      expect(error.pointer).toBe('/components/schemas/A/properties/b');
      expect(error.message).toContain(`remote $ref "${remote}" is not supported`);
    }
  });

  it('reports $refs that lead nowhere, and file $refs without a base', () => {
    const missing = openApiDocument({ schemas: { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/Nope' } } } } });
    const error = conversionError(() => openApiToIdl({ document: missing }));
    expect(error.pointer).toBe('/components/schemas/A/properties/b');
    expect(error.message).toContain('$ref "#/components/schemas/Nope" points to nothing');

    const file = openApiDocument({ schemas: { A: { $ref: 'other.yaml#/A' } } });
    expect(conversionError(() => openApiToIdl({ document: file, baseDir: fixtures })).message).toContain(
      'cannot read the file "other.yaml"',
    );
    expect(conversionError(() => openApiToIdl({ document: file })).message).toContain("needs the document's file name or a base folder");
  });

  it('reports binary data as an error by default, with its pointer', () => {
    const document = openApiDocument({ schemas: { F: { type: 'object', properties: { data: { type: 'string', format: 'binary' } } } } });
    const error = conversionError(() => openApiToIdl({ document }));
    expect(error.pointer).toBe('/components/schemas/F/properties/data');
    expect(error.message).toContain('binary data (format: binary) cannot be carried by JSON-RPC');
  });

  it('reports every place of binary data in one BinaryDataError, naming what binary: drop would drop', () => {
    const document = openApiDocument({
      paths: {
        '/upload': {
          post: {
            operationId: 'upload',
            requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
            responses: { '204': { description: '' } },
          },
        },
      },
      schemas: {
        Blob: { type: 'string', format: 'binary' },
        F: {
          type: 'object',
          properties: {
            data: { type: 'string', format: 'binary' },
            files: { type: 'array', items: { $ref: '#/components/schemas/Blob' } },
          },
        },
      },
    });
    const error = conversionError(() => openApiToIdl({ document }));
    expect(error).toBeInstanceOf(BinaryDataError);
    expect(error.pointer).toBe('/components/schemas/Blob');
    expect((error as BinaryDataError).locations).toEqual([
      { pointer: '/components/schemas/Blob', member: 'schema Blob', action: 'replaced by string' },
      { pointer: '/components/schemas/F/properties/data', member: 'field data of struct F', action: 'dropped' },
      { pointer: '/components/schemas/Blob', member: 'field files of struct F', action: 'dropped' },
      {
        pointer: '/paths/~1upload/post/requestBody/content/application~1octet-stream/schema',
        member: 'operation POST /upload',
        action: 'dropped',
      },
    ]);
    expect(error.message).toBe(
      [
        'binary data (format: binary) cannot be carried by JSON-RPC, at 4 places:',
        '  /components/schemas/Blob: schema Blob (replaced by string)',
        '  /components/schemas/F/properties/data: field data of struct F',
        '  /components/schemas/Blob: field files of struct F',
        '  /paths/~1upload/post/requestBody/content/application~1octet-stream/schema: operation POST /upload',
        "binary: 'drop' drops these 4 members",
      ].join('\n'),
    );
    // With binary: 'drop' the same four are warnings.
    const dropped = openApiToIdl({ document }, { binary: 'drop' });
    expect(dropped.warnings.map((w) => [w.pointer, w.message.split('; ')[1]])).toEqual([
      ['/components/schemas/Blob', 'schema Blob replaced by string'],
      ['/components/schemas/F/properties/data', 'field data of struct F dropped'],
      ['/components/schemas/Blob', 'field files of struct F dropped'],
      ['/paths/~1upload/post/requestBody/content/application~1octet-stream/schema', 'operation POST /upload dropped'],
    ]);
  });

  it('reads referenced files only inside the document folder and the refRoots, comparing real paths', () => {
    const multiFile = join(fixtures, 'multi-file');
    const outside = openApiDocument({ schemas: { Pet: { $ref: '../multi-file/schemas/pet.yaml#/Pet' } } });
    const baseDir = join(fixtures, 'elsewhere');
    const refused = conversionError(() => openApiToIdl({ document: outside, baseDir }));
    expect(refused.pointer).toBe('/components/schemas/Pet');
    expect(refused.message).toContain('$ref "../multi-file/schemas/pet.yaml#/Pet" names a file outside the folders references may reach');
    // A ref root (relative to baseDir) allows the folder.
    expect(openApiToIdl({ document: outside, baseDir, refRoots: ['../multi-file/schemas'] }).idl).toContain('struct Pet {');
    expect(openApiToIdl({ document: outside, baseDir, refRoots: [multiFile] }).idl).toContain('struct Pet {');
  });

  it('reports invalid YAML and JSON with the place', () => {
    const yaml = conversionError(() => openApiToIdl({ text: 'openapi: 3.0.0\ninfo: [unclosed\n', fileName: 'bad.yaml' }));
    expect(yaml.message).toMatch(/^bad\.yaml:\d+:\d+: invalid YAML: /);
    const json = conversionError(() => openApiToIdl({ text: '{"openapi": ', fileName: 'bad.json' }));
    expect(json.message).toContain('bad.json: invalid JSON:');
  });

  it('stops YAML alias bombs at the alias limit', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const name of ['b', 'c', 'd', 'e']) {
      const previous = levels.length === 1 ? 'a' : String.fromCharCode(name.charCodeAt(0) - 1);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    const error = conversionError(() => openApiToIdl({ text: `${levels.join('\n')}\n`, fileName: 'bomb.yaml' }));
    expect(error.message).toContain('bomb.yaml: invalid YAML: Excessive alias count');
  });
});
