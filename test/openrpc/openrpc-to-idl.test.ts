/**
 * `openRpcToIdl`, rule by rule (docs/openrpc.md, "OpenRPC -> IDL"): method names and their
 * renames, params, results, errors, references, streams, the warnings for what the IDL cannot say,
 * and malformed documents refused with the JSON pointer of the problem. Every converted IDL must
 * check clean.
 */
import { describe, expect, it } from 'vitest';
import { ConversionError } from '../../src/openapi/warnings.js';
import { openRpcToIdl, type OpenRpcToIdlResult } from '../../src/openrpc/openrpc-to-idl.js';
import { expectChecksClean } from '../openapi/helpers.js';

/** A minimal OpenRPC 1.3.2 document (title `T`) with these methods and components. */
function openRpcDocument(methods: unknown[], components?: object, rest: object = {}): Record<string, unknown> {
  return { openrpc: '1.3.2', info: { title: 'T', version: '1' }, methods, ...(components ? { components } : {}), ...rest };
}

/** Converts a document, checks the IDL compiles clean, and returns the result. */
function convert(document: unknown): OpenRpcToIdlResult {
  const result = openRpcToIdl({ document });
  expectChecksClean(result.idl);
  return result;
}

/** The interface blocks of a converted IDL (the rest is declarations). */
function interfaces(idl: string): string {
  return idl.slice(idl.indexOf('interface '));
}

/** `pointer: message`, one per warning. */
function warningLines(result: OpenRpcToIdlResult): string[] {
  return result.warnings.map((w) => `${w.pointer}: ${w.message}`);
}

const int = { type: 'integer' };
const str = { type: 'string' };

describe('method names', () => {
  it('splits a name at its last dot into interface and method, keeping the wire name', () => {
    const result = convert(
      openRpcDocument([
        { name: 'Pets.list', params: [], result: { name: 'r', schema: { type: 'array', items: str } } },
        { name: 'Pets.get', params: [{ name: 'id', required: true, schema: int }], result: { name: 'r', schema: str } },
        { name: 'Owners.get', params: [], result: { name: 'r', schema: str } },
      ]),
    );
    expect(interfaces(result.idl)).toBe(
      'interface Pets {\n    list() []string\n\n    get(id int) string\n}\n\ninterface Owners {\n    get() string\n}\n',
    );
    expect(result.warnings).toEqual([]);
    expect(result.renamedMethods).toEqual([]);
  });

  it('puts names without a dot into one interface named after info.title, warning once per method', () => {
    const document = openRpcDocument([
      { name: 'list_pets', params: [], result: { name: 'r', schema: str } },
      { name: 'Petstore.count', params: [], result: { name: 'r', schema: int } },
      { name: 'count', params: [], result: { name: 'r', schema: int } },
    ]);
    (document.info as Record<string, unknown>).title = 'Petstore';
    const result = convert(document);
    // The interface the title names is shared with `Petstore.count`, which keeps its name: the renamed `count` gives way.
    expect(interfaces(result.idl)).toBe('interface Petstore {\n    list_pets() string\n\n    count() int\n\n    count_2() int\n}\n');
    expect(result.renamedMethods).toEqual([
      { from: 'list_pets', to: 'Petstore.list_pets' },
      { from: 'count', to: 'Petstore.count_2' },
    ]);
    expect(warningLines(result)).toEqual([
      '/methods/0/name: method "list_pets" has no dot: servers split method names at the last dot, so it becomes method list_pets of interface Petstore (after info.title), called "Petstore.list_pets"',
      '/methods/2/name: method "count" has no dot: servers split method names at the last dot, so it becomes method count_2 of interface Petstore (after info.title), called "Petstore.count_2"',
    ]);
  });

  it('makes a title that is no identifier one (PascalCase) and names parts that are no identifiers by the rules, warning', () => {
    const document = openRpcDocument([
      { name: 'eth_getBalance', params: [], result: { name: 'r', schema: str } },
      { name: 'my-api.get-thing', params: [], result: { name: 'r', schema: str } },
      { name: 'a.b.map', params: [], result: { name: 'r', schema: str } },
    ]);
    (document.info as Record<string, unknown>).title = 'Ethereum JSON-RPC';
    const result = convert(document);
    expect(result.renamedMethods).toEqual([
      { from: 'eth_getBalance', to: 'EthereumJSONRPC.eth_getBalance' },
      { from: 'my-api.get-thing', to: 'MyApi.getThing' },
      { from: 'a.b.map', to: 'AB.map_' },
    ]);
    expect(warningLines(result)).toContain(
      '/methods/1/name: method "my-api.get-thing" is not <Interface>.<method> in valid unique IDL identifiers; written as method getThing of interface MyApi, called "MyApi.getThing"',
    );
    // In document order, though methods that name their interface are placed first.
    expect(result.warnings.map((w) => w.pointer)).toEqual(['/methods/0/name', '/methods/1/name', '/methods/2/name']);
  });

  it('drops the reserved rpc. methods with a warning', () => {
    const result = convert(openRpcDocument([{ name: 'rpc.discover', params: [], result: { name: 'r', schema: {} } }]));
    expect(result.idl).not.toContain('interface');
    expect(warningLines(result)).toEqual([
      '/methods/0/name: method "rpc.discover" dropped: names starting with "rpc." are reserved for the JSON-RPC specification\'s own methods (the server answers rpc.discover itself)',
    ]);
  });

  it('claims interface names before schema names: the interface keeps its name, the schema gets _2', () => {
    const result = convert(
      openRpcDocument([{ name: 'Pet.get', params: [], result: { name: 'r', schema: { $ref: '#/components/schemas/Pet' } } }], {
        schemas: { Pet: { type: 'object', properties: { name: str } } },
      }),
    );
    expect(result.idl).toContain('struct Pet_2 {');
    expect(interfaces(result.idl)).toBe('interface Pet {\n    get() Pet_2\n}\n');
  });
});

describe('params and results', () => {
  it('keeps params by name and order; required: false (the default) makes them [optional], with their constraints', () => {
    const result = convert(
      openRpcDocument([
        {
          name: 'S.find',
          params: [
            { name: 'query', required: true, schema: { type: 'string', minLength: 1 } },
            { name: 'page_size', schema: { type: 'integer', minimum: 1, default: 20 } },
            { name: 'cursor', required: false, schema: str },
          ],
          result: { name: 'r', schema: { type: 'array', items: str } },
        },
      ]),
    );
    expect(interfaces(result.idl)).toContain(
      'find(query string [minLength=1], page_size int [optional, default=20, min=1], cursor string [optional]) []string',
    );
    expect(result.warnings).toEqual([]);
  });

  it('moves optional params after required ones with a warning (positions change)', () => {
    const result = convert(
      openRpcDocument([
        {
          name: 'S.f',
          params: [
            { name: 'a', schema: int },
            { name: 'b', required: true, schema: int },
          ],
          result: { name: 'r', schema: int },
        },
      ]),
    );
    expect(interfaces(result.idl)).toContain('f(b int, a int [optional]) int');
    expect(warningLines(result)).toEqual([
      '/methods/0/params/1: required param "b" follows an optional one (the specification puts required params first): the optional params are moved after the required ones, which changes their positions',
    ]);
  });

  it('keeps property and param names that are identifiers as written (they are the wire), renaming others with a warning', () => {
    const result = convert(
      openRpcDocument(
        [
          {
            name: 'S.f',
            params: [{ name: 'pet-id', required: true, schema: int }],
            result: { name: 'r', schema: { $ref: '#/components/schemas/P' } },
          },
        ],
        { schemas: { P: { type: 'object', required: ['first_name'], properties: { first_name: str } } } },
      ),
    );
    expect(result.idl).toContain('struct P {\n    first_name   string\n}');
    expect(interfaces(result.idl)).toContain('f(petId int) P');
    expect(warningLines(result)).toEqual([
      '/methods/0/params/0: param "pet-id" is written as petId (a valid unique identifier): callers passing params by name must use petId',
    ]);
  });

  it('makes a nullable result an [optional] return, and a method without a result a notification-like bool [optional]', () => {
    const result = convert(
      openRpcDocument(
        [
          { name: 'S.find', params: [], result: { name: 'r', schema: { type: ['string', 'null'] } } },
          { name: 'S.ref', params: [], result: { name: 'r', schema: { oneOf: [{ $ref: '#/components/schemas/P' }, { type: 'null' }] } } },
          { name: 'S.notify', params: [{ name: 'event', required: true, schema: str }] },
        ],
        { schemas: { P: { type: 'object', properties: { a: str } } } },
      ),
    );
    expect(interfaces(result.idl)).toBe(
      'interface S {\n    find() string [optional]\n\n    ref() P [optional]\n\n    notify(event string) bool [optional]\n}\n',
    );
    expect(warningLines(result)).toEqual([
      '/methods/2/name: method "S.notify" has no result (a notification only): the IDL method returns bool [optional], always null',
    ]);
  });

  it('makes a result that only allows null (type: "null") bool [optional], with a warning', () => {
    const result = convert(openRpcDocument([{ name: 'S.reset', params: [], result: { name: 'r', schema: { type: 'null' } } }]));
    expect(interfaces(result.idl)).toBe('interface S {\n    reset() bool [optional]\n}\n');
    expect(warningLines(result)).toEqual(['/methods/0/result/schema: a schema that only allows null: used bool [optional]']);
  });

  it('follows $refs to components.contentDescriptors for params and results', () => {
    const result = convert(
      openRpcDocument(
        [
          {
            name: 'S.get',
            params: [{ $ref: '#/components/contentDescriptors/Id' }],
            result: { $ref: '#/components/contentDescriptors/Item' },
          },
        ],
        {
          contentDescriptors: {
            Id: { name: 'id', required: true, schema: { type: 'integer', minimum: 0 } },
            Item: { name: 'item', schema: { $ref: '#/components/schemas/Item' } },
            Unused: { name: 'x', schema: str },
          },
          schemas: { Item: { type: 'object', required: ['id'], properties: { id: int } } },
        },
      ),
    );
    expect(interfaces(result.idl)).toBe('interface S {\n    get(id int [min=0]) Item\n}\n');
    expect(warningLines(result)).toEqual([
      '/components/contentDescriptors/Unused: content descriptor "Unused" dropped: no method uses it, and the IDL has params only in methods',
    ]);
  });

  it('hoists inline object params and results as <Method>_<param> and <Method>Result', () => {
    const object = { type: 'object', properties: { a: str } };
    const result = convert(
      openRpcDocument([
        { name: 'S.make', params: [{ name: 'spec', required: true, schema: object }], result: { name: 'r', schema: object } },
      ]),
    );
    expect(result.idl).toContain('struct Make_spec {');
    expect(result.idl).toContain('struct MakeResult {');
    expect(interfaces(result.idl)).toContain('make(spec Make_spec) MakeResult');
  });

  it('makes x-idlrpc-stream: true a stream of the result, dropping null items with a warning', () => {
    const result = convert(
      openRpcDocument([
        { name: 'S.watch', 'x-idlrpc-stream': true, params: [], result: { name: 'r', schema: { type: 'integer', minimum: 0 } } },
        { name: 'S.tail', 'x-idlrpc-stream': true, params: [], result: { name: 'r', schema: { type: ['string', 'null'] } } },
      ]),
    );
    expect(interfaces(result.idl)).toBe('interface S {\n    watch() stream int [min=0]\n\n    tail() stream string\n}\n');
    expect(warningLines(result)).toEqual([
      '/methods/1/result/schema: null items dropped: the items of an IDL stream are values, never null',
    ]);
  });

  it('writes schemas that are aliases (no struct, enum or union) where they are used, with a warning', () => {
    const result = convert(
      openRpcDocument(
        [
          {
            name: 'S.f',
            params: [{ name: 'n', required: true, schema: { $ref: '#/components/schemas/Count' } }],
            result: { name: 'r', schema: int },
          },
        ],
        {
          schemas: { Count: { type: 'integer', minimum: 0 } },
        },
      ),
    );
    expect(interfaces(result.idl)).toContain('f(n int [min=0]) int');
    expect(warningLines(result)).toEqual([
      '/components/schemas/Count: schema "Count" is int: the IDL has no type aliases, so it declares no type and its uses are written int',
    ]);
  });
});

describe('errors', () => {
  it('declares each code once (methods and components.errors), raises it where listed, and warns a second message', () => {
    const result = convert(
      openRpcDocument(
        [
          {
            name: 'S.a',
            params: [],
            result: { name: 'r', schema: str },
            errors: [{ code: 100, message: 'pets busy' }, { $ref: '#/components/errors/NotFound' }, { code: 100, message: 'pets busy' }],
          },
          {
            name: 'S.b',
            params: [],
            result: { name: 'r', schema: str },
            errors: [{ code: 100, message: 'too busy', data: { type: 'string' } }],
          },
        ],
        { errors: { NotFound: { code: 404, message: 'no such pet' }, Unused: { code: 7, message: 'never raised' } } },
      ),
    );
    expect(result.idl).toContain(
      'errors {\n    404 NotFound "no such pet"\n    7   Unused   "never raised"\n    100 PetsBusy "pets busy"\n}',
    );
    expect(interfaces(result.idl)).toBe('interface S {\n    a() string raises(PetsBusy, NotFound)\n\n    b() string raises(PetsBusy)\n}\n');
    expect(warningLines(result)).toEqual([
      '/methods/1/errors/0/message: error code 100 has the message "too busy" here and "pets busy" at /methods/0/errors/0: the IDL keeps one message per code, the first',
    ]);
  });

  it('drops codes in the range JSON-RPC reserves with a warning, and names errors without words Error<code>', () => {
    const result = convert(
      openRpcDocument([
        {
          name: 'S.a',
          params: [],
          result: { name: 'r', schema: str },
          errors: [
            { code: -32000, message: 'Server error' },
            { code: -1, message: '!!!' },
            { code: 5, message: 'line\nbreak' },
          ],
        },
      ]),
    );
    expect(result.idl).toContain('errors {\n    -1 ErrorMinus1 "!!!"\n    5  LineBreak   "line break"\n}');
    expect(interfaces(result.idl)).toContain('a() string raises(ErrorMinus1, LineBreak)');
    expect(warningLines(result)).toEqual([
      '/methods/0/errors/0/code: error code -32000 is in the range JSON-RPC reserves for the protocol (-32768 to -32000): the IDL declares no error there; dropped (a handler may still throw it)',
      '/methods/0/errors/2/message: the message of error 5 has line breaks or control characters: written with spaces instead',
    ]);
  });

  it('warns that error data is dropped', () => {
    const result = convert(
      openRpcDocument([
        { name: 'S.a', params: [], result: { name: 'r', schema: str }, errors: [{ code: 1, message: 'x', data: { why: 1 } }] },
      ]),
    );
    expect(warningLines(result)).toEqual([
      "/methods/0/errors/0/data: the data of error 1 dropped: the IDL's declared errors carry no data",
    ]);
  });
});

describe('what the IDL cannot say: warnings', () => {
  it('warns for paramStructure, tags, examples, links, servers and their variables, externalDocs and documentation components', () => {
    const result = convert(
      openRpcDocument(
        [
          {
            name: 'S.a',
            params: [{ name: 'p', description: 'the p', deprecated: true, schema: int }],
            result: { name: 'r', summary: 'the r', schema: int },
            paramStructure: 'by-position',
            tags: [{ name: 'other' }],
            examples: [{ name: 'e', params: [{ name: 'p', value: 1 }], result: { name: 'r', value: 2 } }],
            links: [{ name: 'l', method: 'S.a' }],
            servers: [{ url: 'http://x' }],
            externalDocs: { url: 'http://x' },
            deprecated: true,
            summary: 'Does a.',
          },
        ],
        { links: { L: { name: 'L' } }, examples: { E: { name: 'E', value: 1 } } },
        { servers: [{ url: 'http://{host}', variables: { host: { default: 'x' } } }], externalDocs: { url: 'http://x' } },
      ),
    );
    expect(interfaces(result.idl)).toBe(
      'interface S {\n    // Does a.\n    // @deprecated\n    // @example 2\n    a(p int [optional]) int\n}\n',
    );
    expect(warningLines(result)).toEqual([
      '/methods/0/params/0/description: the description of param "p" dropped: IDL parameters have no doc comments',
      '/methods/0/params/0/deprecated: the deprecation of param "p" dropped: the IDL deprecates methods, not their params or results',
      '/methods/0/result/summary: the summary of the result dropped: the IDL has no doc comment for a result',
      '/methods/0/paramStructure: paramStructure "by-position" dropped: an IDL server takes params by name and by position, and its generated client sends them by position',
      '/methods/0/tags: tags dropped: the IDL groups methods by interface (S) only',
      "/methods/0/examples: the example pairing dropped: the IDL keeps no example calls (the first pairing's result is the method's @example)",
      '/methods/0/links: links dropped: the IDL describes no links between methods',
      '/methods/0/servers: servers dropped: the IDL names no servers',
      '/methods/0/externalDocs: externalDocs dropped: the IDL has no external documentation links',
      '/servers: servers dropped: the IDL names no servers (nor their variables)',
      '/externalDocs: externalDocs dropped: the IDL has no external documentation links',
      '/components/examples: components.examples dropped: the IDL keeps no example calls',
      '/components/links: components.links dropped: the IDL describes no links between methods',
    ]);
  });

  it("keeps a tag named like the method's interface (its description: the interface comment), x-readonly and the result schema's example", () => {
    const result = convert(
      openRpcDocument([
        {
          name: 'S.a',
          params: [],
          result: { name: 'r', schema: { ...int, examples: [3] } },
          tags: [{ name: 'S', description: 'The S service.' }],
          paramStructure: 'either',
          'x-readonly': true,
        },
      ]),
    );
    expect(result.idl).toBe('namespace t\n\n// The S service.\ninterface S {\n    // @readonly\n    // @example 3\n    a() int\n}\n');
    expect(result.warnings).toEqual([]);
  });
});

describe('references', () => {
  it.each([
    ['another file', 'other.json#/components/schemas/P'],
    ['a URL', 'https://example.com/schemas.json#/P'],
  ])('refuses a $ref to %s, naming it and where it is', (_what, ref) => {
    const document = openRpcDocument([{ name: 'S.a', params: [], result: { name: 'r', schema: { $ref: ref } } }]);
    expect(() => openRpcToIdl({ document })).toThrow(
      new ConversionError(
        '/methods/0/result/schema',
        `external $ref "${ref}" is not supported: an OpenRPC document is converted with references into itself only ("#/components/...")`,
      ),
    );
  });

  it('refuses a content descriptor $ref that leads nowhere or back to itself', () => {
    const nowhere = openRpcDocument([{ name: 'S.a', params: [{ $ref: '#/components/contentDescriptors/X' }] }]);
    expect(() => openRpcToIdl({ document: nowhere })).toThrow(
      '$ref "#/components/contentDescriptors/X" points to nothing (at /methods/0/params/0)',
    );
    const loop = openRpcDocument([{ name: 'S.a', params: [{ $ref: '#/components/contentDescriptors/A' }] }], {
      contentDescriptors: { A: { $ref: '#/components/contentDescriptors/B' }, B: { $ref: '#/components/contentDescriptors/A' } },
    });
    expect(() => openRpcToIdl({ document: loop })).toThrow('the $ref chain leads back to itself (at /methods/0/params/0)');
  });
});

describe('malformed documents: the JSON pointer and the problem', () => {
  const method = { name: 'S.a', params: [], result: { name: 'r', schema: int } };
  it.each<[string, unknown, string, string]>([
    ['not an object', [], '', 'not an OpenRPC document: the top level is not an object'],
    [
      'an OpenAPI document',
      { openapi: '3.1.0' },
      '',
      'not an OpenRPC document: the "openrpc" version field is missing (an OpenAPI document: use -openapi-to-idl)',
    ],
    [
      'another version',
      { ...openRpcDocument([]), openrpc: '2.0.0' },
      '/openrpc',
      'OpenRPC 2.0.0 is not supported: only 1.x documents are converted',
    ],
    ['no info', { openrpc: '1.3.2', methods: [] }, '/info', 'info is missing'],
    ['no title', { openrpc: '1.3.2', info: { version: '1' }, methods: [] }, '/info/title', 'info.title is missing'],
    ['no methods', { openrpc: '1.3.2', info: { title: 'T', version: '1' } }, '/methods', 'methods is missing'],
    ['methods not a list', { ...openRpcDocument([]), methods: {} }, '/methods', 'methods must be an array'],
    ['a method not an object', openRpcDocument([42]), '/methods/0', 'a method must be an object'],
    ['a method without a name', openRpcDocument([{ params: [] }]), '/methods/0/name', 'the method name is missing'],
    ['a method without params', openRpcDocument([{ name: 'S.a' }]), '/methods/0/params', 'params of method "S.a" is missing'],
    [
      'two methods of one name',
      openRpcDocument([method, method]),
      '/methods/1/name',
      'method name "S.a" is used twice (also at /methods/0): method names must be unique',
    ],
    [
      'a param without a name',
      openRpcDocument([{ name: 'S.a', params: [{ schema: int }] }]),
      '/methods/0/params/0/name',
      'the name of a param is missing',
    ],
    [
      'a param without a schema',
      openRpcDocument([{ name: 'S.a', params: [{ name: 'p' }] }]),
      '/methods/0/params/0/schema',
      'the schema of a param "p" is missing',
    ],
    [
      'two params of one name',
      openRpcDocument([
        {
          name: 'S.a',
          params: [
            { name: 'p', schema: int },
            { name: 'p', schema: int },
          ],
        },
      ]),
      '/methods/0/params/1',
      'param name "p" is used twice in method "S.a": param names must be unique',
    ],
    [
      'required not a boolean',
      openRpcDocument([{ name: 'S.a', params: [{ name: 'p', required: 'yes', schema: int }] }]),
      '/methods/0/params/0/required',
      'required must be true or false',
    ],
    [
      'a result without a schema',
      openRpcDocument([{ name: 'S.a', params: [], result: { name: 'r' } }]),
      '/methods/0/result/schema',
      'the schema of the result "r" is missing',
    ],
    [
      'an error code that is no integer',
      openRpcDocument([{ ...method, errors: [{ code: 1.5, message: 'x' }] }]),
      '/methods/0/errors/0/code',
      'the error code must be an integer',
    ],
    [
      'an error without a message',
      openRpcDocument([{ ...method, errors: [{ code: 1 }] }]),
      '/methods/0/errors/0/message',
      'the error message is missing',
    ],
    [
      'a bad paramStructure',
      openRpcDocument([{ ...method, paramStructure: 'named' }]),
      '/methods/0/paramStructure',
      'paramStructure must be "by-name", "by-position", "either"',
    ],
    ['components not an object', openRpcDocument([], []), '/components', 'components must be an object'],
    [
      'component errors not a map',
      openRpcDocument([], { errors: [] }),
      '/components/errors',
      'components.errors must be an object (a map of names to entries)',
    ],
  ])('%s', (_what, document, pointer, message) => {
    let thrown: unknown;
    try {
      openRpcToIdl({ document });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConversionError);
    expect((thrown as ConversionError).pointer).toBe(pointer);
    expect((thrown as ConversionError).message).toBe(pointer === '' ? message : `${message} (at ${pointer})`);
  });

  it('refuses text that is not JSON, naming the file', () => {
    expect(() => openRpcToIdl({ text: '{"openrpc": ', fileName: 'api.json' })).toThrow(/^api\.json: invalid JSON: /);
  });

  it('reads YAML', () => {
    const result = openRpcToIdl({
      text: 'openrpc: 1.3.2\ninfo: {title: T, version: "1"}\nmethods:\n  - {name: S.a, params: [], result: {name: r, schema: {type: string}}}\n',
      fileName: 'api.yaml',
    });
    expect(result.idl).toBe('namespace t\n\ninterface S {\n    a() string\n}\n');
  });
});
