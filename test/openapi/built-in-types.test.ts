/**
 * timestamp, date, bytes and json in OpenAPI, both ways (docs/openapi.md).
 */
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';

const IDL = `namespace files

struct Upload {
    at       timestamp
    day      date
    raw      bytes
    data     json
    seen     timestamp   [optional]
    extra    json        [optional]
    blobs    map[string]bytes
}

interface Files {
    put(upload Upload) Upload
}
`;

const properties = (document: Record<string, unknown>) =>
  (document as { components: { schemas: { Upload: { properties: Record<string, unknown> } } } }).components.schemas.Upload.properties;

describe('IDL -> OpenAPI', () => {
  it('3.1: date-time, date, contentEncoding base64, and json as a schema without constraints', () => {
    const { document } = idlToOpenApi([compileIdl(IDL, 'files.idl')]);
    expect(properties(document)).toEqual({
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      raw: { type: 'string', contentEncoding: 'base64' },
      data: {},
      seen: { type: ['string', 'null'], format: 'date-time' },
      extra: {},
      blobs: { type: 'object', additionalProperties: { type: 'string', contentEncoding: 'base64' } },
    });
  });

  it('3.0: format byte, and json as {} (nullable without a type is not valid 3.0)', () => {
    const { document } = idlToOpenApi([compileIdl(IDL, 'files.idl')], { version: '3.0' });
    expect(properties(document)).toMatchObject({
      at: { type: 'string', format: 'date-time' },
      raw: { type: 'string', format: 'byte' },
      data: {},
      seen: { type: 'string', format: 'date-time', nullable: true },
      extra: {},
    });
  });

  it('round-trips through OpenAPI to the same types, in 3.1 and 3.0', () => {
    for (const version of ['3.1', '3.0'] as const) {
      const { document } = idlToOpenApi([compileIdl(IDL, 'files.idl')], { version });
      const back = openApiToIdl({ document, fileName: 'files.json' });
      const fields = toIdlJson(compileIdl(back.idl, 'files.idl')).structs?.find((s) => s.name === 'Upload')?.fields;
      expect(fields?.map((field) => [field.name, field.type, field.optional ?? false])).toEqual([
        ['at', { builtIn: 'timestamp' }, false],
        ['day', { builtIn: 'date' }, false],
        ['raw', { builtIn: 'bytes' }, false],
        ['data', { builtIn: 'json' }, false],
        ['seen', { builtIn: 'timestamp' }, true],
        ['extra', { builtIn: 'json' }, true],
        ['blobs', { mapValue: { builtIn: 'bytes' } }, false],
      ]);
    }
  });
});

describe('OpenAPI -> IDL', () => {
  const convert = (schema: Record<string, unknown>) => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Thing: { type: 'object', required: ['value'], properties: { value: schema } } } },
    };
    const result = openApiToIdl({ document, fileName: 'thing.json' });
    return { field: /\n\s*value\s+(.+)\n/.exec(result.idl)?.[1].trim(), warnings: result.warnings.map((w) => w.message) };
  };

  it.each([
    [{ type: 'string', format: 'date-time' }, 'timestamp'],
    [{ type: 'string', format: 'date' }, 'date'],
    [{ type: 'string', format: 'byte' }, 'bytes'],
    [{ type: 'string', contentEncoding: 'base64' }, 'bytes'],
    [{}, 'json'],
    [{ description: 'anything' }, 'json'],
    [{ nullable: true }, 'json'],
    [{ type: 'object', additionalProperties: true }, 'json'],
    [{ type: 'array', items: {} }, '[]json'],
    [{ type: 'string', format: 'email' }, 'string  [format="email"]'],
  ])('%j becomes %s, without a warning', (schema, type) => {
    expect(convert(schema)).toEqual({ field: type, warnings: [] });
  });
});
