/**
 * One minimal OpenAPI document per conversion rule and per warning of docs/openapi.md (and of the
 * choices docs/openapi.md documents), with the exact IDL it must give and the warnings it must raise.
 */
import { openApiDocument } from './helpers.js';

export interface RuleCase {
  name: string;
  /** A document object, or YAML text. */
  document: object | string;
  binary?: 'error' | 'drop';
  idl: string;
  /** `[pointer, text the message contains]`, in order; exactly these warnings. */
  warnings: [string, string][];
}

/** An operation answering 200 with the given schema. */
function returning(schema: object, extra: object = {}): object {
  return { operationId: 'op', responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } }, ...extra };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const ruleCases: RuleCase[] = [
  // ---- Type mapping: OpenAPI to IDL -------------------------------------------------------------
  {
    name: 'type mapping: scalars, formats, arrays',
    document: openApiDocument({
      schemas: {
        Scalars: {
          type: 'object',
          required: ['s', 'i32', 'i64', 'f', 'd', 'b', 'list', 'plainInt', 'plainNumber'],
          properties: {
            s: { type: 'string' },
            i32: { type: 'integer', format: 'int32' },
            i64: { type: 'integer', format: 'int64' },
            f: { type: 'number', format: 'float' },
            d: { type: 'number', format: 'double' },
            b: { type: 'boolean' },
            list: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
            plainInt: { type: 'integer' },
            plainNumber: { type: 'number' },
          },
        },
      },
    }),
    idl: `namespace t

struct Scalars {
    s            string
    i32          int      [format="int32"]
    i64          int
    f            float    [format="float"]
    d            float
    b            bool
    list         [][]int
    plainInt     int
    plainNumber  float
}
`,
    warnings: [],
  },
  {
    name: 'type mapping: additionalProperties gives a map; a free-form object an empty struct',
    document: openApiDocument({
      schemas: {
        Holder: {
          type: 'object',
          required: ['counts', 'nested'],
          properties: {
            counts: { type: 'object', additionalProperties: { type: 'integer' } },
            nested: { additionalProperties: { type: 'array', items: ref('Holder') } },
            anything: { type: 'object' },
          },
        },
      },
    }),
    idl: `namespace t

struct Holder {
    counts       map[string]int
    nested       map[string][]Holder
    anything     Holder_anything      [optional]
}

struct Holder_anything {
}
`,
    warnings: [],
  },

  // ---- Struct rules ------------------------------------------------------------------------------
  {
    name: 'struct rules: title names the struct, required fields plain, others [optional]',
    document: openApiDocument({
      schemas: {
        pet: { title: 'Pet', type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } },
        Owner: { type: 'object', properties: { pet: ref('pet') } },
      },
    }),
    idl: `namespace t

struct Pet {
    name         string
    tag          string  [optional]
}

struct Owner {
    pet          Pet  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'struct rules: property names converted to camelCase',
    document: openApiDocument({
      schemas: {
        Item: {
          type: 'object',
          required: ['pet_type', 'created-at', 'HTMLUrl', 'ID', 'Name'],
          properties: {
            pet_type: { type: 'string' },
            'created-at': { type: 'integer' },
            HTMLUrl: { type: 'string' },
            ID: { type: 'string' },
            Name: { type: 'string' },
          },
        },
      },
    }),
    idl: `namespace t

struct Item {
    petType      string
    createdAt    int
    htmlUrl      string
    id           string
    name         string
}
`,
    warnings: [],
  },
  {
    name: 'struct rules: descriptions become doc comments (several lines, trailing blanks dropped)',
    document: openApiDocument({
      schemas: {
        Doc: {
          type: 'object',
          description: 'A documented struct.\r\nSecond line.  \n',
          properties: { a: { type: 'string', description: 'The a field.' } },
        },
      },
    }),
    idl: `namespace t

// A documented struct.
// Second line.
struct Doc {
    // The a field.
    a            string  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'optional-field rules: nullable (3.0) makes a required field [optional]',
    document: openApiDocument({
      schemas: {
        N: {
          type: 'object',
          required: ['a', 'b', 'c'],
          properties: { a: { type: 'string', nullable: true }, b: { type: 'string' }, c: { allOf: [ref('M')], nullable: true } },
        },
        M: { type: 'object', properties: { x: { type: 'string' } } },
      },
    }),
    idl: `namespace t

struct N {
    a            string  [optional]
    b            string
    c            M       [optional]
}

struct M {
    x            string  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'optional-field rules: 3.1 type arrays with null and oneOf with null make [optional]',
    document: openApiDocument({
      openapi: '3.1.0',
      schemas: {
        N: {
          type: 'object',
          required: ['a', 'b', 'c', 'd'],
          properties: {
            a: { type: ['string', 'null'] },
            b: { oneOf: [ref('M'), { type: 'null' }] },
            c: { type: ['array', 'null'], items: { type: 'integer' } },
            d: { type: 'integer' },
          },
        },
        M: { type: 'object', properties: {} },
      },
    }),
    idl: `namespace t

struct N {
    a            string  [optional]
    b            M       [optional]
    c            []int   [optional]
    d            int
}

struct M {
}
`,
    warnings: [],
  },

  // ---- Enum rules --------------------------------------------------------------------------------
  {
    name: 'enum rules: string enum, description, x-enum-descriptions; valid values kept as written',
    document: openApiDocument({
      schemas: {
        Status: {
          type: 'string',
          description: 'Order status.',
          enum: ['placed', 'Approved', 'in_transit'],
          'x-enum-descriptions': ['Just placed.', '', 'On its way.'],
        },
      },
    }),
    idl: `namespace t

// Order status.
enum Status {
    // Just placed.
    placed
    Approved
    // On its way.
    in_transit
}
`,
    warnings: [],
  },
  {
    name: 'enum rules: values made valid identifiers, each change warned',
    document: openApiDocument({
      schemas: {
        Odd: { type: 'string', enum: ['in-progress', '1.0', 'string', '', '+1', '-1', 'a b', null] },
      },
    }),
    idl: `namespace t

enum Odd {
    in_progress
    v1_0
    string_
    empty
    v1
    v1_2
    a_b
}
`,
    warnings: [
      ['/components/schemas/Odd/enum/0', 'enum value "in-progress" of Odd is written as in_progress'],
      ['/components/schemas/Odd/enum/1', 'enum value "1.0" of Odd is written as v1_0'],
      ['/components/schemas/Odd/enum/2', 'enum value "string" of Odd is written as string_'],
      ['/components/schemas/Odd/enum/3', 'enum value "" of Odd is written as empty'],
      ['/components/schemas/Odd/enum/4', 'enum value "+1" of Odd is written as v1'],
      ['/components/schemas/Odd/enum/5', 'enum value "-1" of Odd is written as v1_2'],
      ['/components/schemas/Odd/enum/6', 'enum value "a b" of Odd is written as a_b'],
    ],
  },
  {
    name: 'enum rules: a numeric enum becomes a struct of constants, with a warning; users are typed int',
    document: openApiDocument({
      schemas: {
        Level: { type: 'integer', description: 'Log level.', enum: [0, 1, -1] },
        Ratio: { type: 'number', enum: [0.5, 2] },
        Entry: { type: 'object', required: ['level'], properties: { level: ref('Level'), ratio: ref('Ratio') } },
      },
    }),
    idl: `namespace t

// Log level.
// Numeric enum: the values 0, 1, -1.
struct Level {
    // = 0
    v0           int
    // = 1
    v1           int
    // = -1
    vminus1      int
}

// Numeric enum: the values 0.5, 2.
struct Ratio {
    // = 0.5
    v0_5         float
    // = 2
    v2           float
}

struct Entry {
    level        int
    ratio        float  [optional]
}
`,
    warnings: [
      ['/components/schemas/Level/enum', 'numeric enum converted to struct Level of constants'],
      ['/components/schemas/Ratio/enum', 'numeric enum converted to struct Ratio of constants'],
    ],
  },

  // ---- Inheritance rules -------------------------------------------------------------------------
  {
    name: 'inheritance: allOf with one $ref and an inline object gives extends; the child keeps its own fields',
    document: openApiDocument({
      schemas: {
        Animal: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        Dog: {
          description: 'A dog.',
          allOf: [
            ref('Animal'),
            { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' }, breed: { type: 'string' } } },
          ],
        },
      },
    }),
    idl: `namespace t

struct Animal {
    name         string
}

// A dog.
struct Dog extends Animal {
    barks        bool
    breed        string  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'inheritance: allOf with several $refs warns, extends the first, copies the others',
    document: openApiDocument({
      schemas: {
        A: { type: 'object', properties: { a: { type: 'string' } } },
        B: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } },
        C: { allOf: [ref('A'), ref('B'), { type: 'object', properties: { c: { type: 'string' } } }] },
      },
    }),
    idl: `namespace t

struct A {
    a            string  [optional]
}

struct B {
    b            string
}

struct C extends A {
    b            string
    c            string  [optional]
}
`,
    warnings: [
      [
        '/components/schemas/C/allOf',
        'allOf with 2 $refs: the first is the parent of struct C; the properties of #/components/schemas/B are copied into it',
      ],
    ],
  },
  {
    name: 'inheritance: allOf without a $ref warns and flattens',
    document: openApiDocument({
      schemas: {
        Flat: {
          allOf: [
            { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } },
            { type: 'object', properties: { y: { type: 'integer' } } },
          ],
        },
      },
    }),
    idl: `namespace t

struct Flat {
    x            int
    y            int  [optional]
}
`,
    warnings: [['/components/schemas/Flat/allOf', 'allOf without a $ref: the properties of its members are flattened into struct Flat']],
  },
  {
    name: 'inheritance: a child property narrowing an inherited one makes the child copy the parent fields, with a warning',
    document: openApiDocument({
      schemas: {
        Base: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, note: { type: 'string' } } },
        Sub: {
          allOf: [ref('Base'), { type: 'object', properties: { kind: { type: 'string', enum: ['sub'] }, extra: { type: 'integer' } } }],
        },
      },
    }),
    idl: `namespace t

struct Base {
    kind         string
    note         string  [optional]
}

struct Sub {
    kind         Sub_kind
    note         string    [optional]
    extra        int       [optional]
}

enum Sub_kind {
    sub
}
`,
    warnings: [
      [
        '/components/schemas/Sub/allOf/1/properties/kind',
        "property kind redefines the field inherited from Base; struct Sub copies its parents' fields instead of extending Base",
      ],
    ],
  },
  {
    name: 'inheritance: a child property repeating an inherited one unchanged is dropped silently',
    document: openApiDocument({
      schemas: {
        Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        Sub: {
          allOf: [
            ref('Base'),
            { type: 'object', properties: { id: { type: 'string', description: 'Again.' }, more: { type: 'boolean' } } },
          ],
        },
      },
    }),
    idl: `namespace t

struct Base {
    id           string
}

struct Sub extends Base {
    more         bool  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'inheritance: allOf $refs that loop are flattened instead of extending',
    document: openApiDocument({
      schemas: {
        P: { allOf: [ref('Q'), { type: 'object', properties: { p: { type: 'string' } } }] },
        Q: { allOf: [ref('P'), { type: 'object', properties: { q: { type: 'string' } } }] },
      },
    }),
    idl: `namespace t

struct P {
    q            string  [optional]
    p            string  [optional]
}

struct Q extends P {
}
`,
    warnings: [['/components/schemas/P/allOf/0', 'allOf $ref would make P inherit from itself; its properties are flattened instead']],
  },

  // ---- Circular references -----------------------------------------------------------------------
  {
    name: 'circular references: a required self-reference is broken with [optional] and a warning',
    document: openApiDocument({
      schemas: {
        Node: {
          type: 'object',
          required: ['next', 'children'],
          properties: { next: ref('Node'), children: { type: 'array', items: ref('Node') } },
        },
      },
    }),
    idl: `namespace t

struct Node {
    next         Node    [optional]
    children     []Node
}
`,
    warnings: [['/components/schemas/Node/properties/next', 'circular reference (Node -> Node) broken by marking field next [optional]']],
  },
  {
    name: 'circular references: a required cycle through two schemas is broken at the field closing it',
    document: openApiDocument({
      schemas: {
        A: { type: 'object', required: ['b'], properties: { b: ref('B') } },
        B: { type: 'object', required: ['a'], properties: { a: ref('A') } },
      },
    }),
    idl: `namespace t

struct A {
    b            B
}

struct B {
    a            A  [optional]
}
`,
    warnings: [['/components/schemas/B/properties/a', 'circular reference (A -> B -> A) broken by marking field a [optional]']],
  },

  // ---- Namespace and title -----------------------------------------------------------------------
  {
    name: 'namespace: a title with spaces gives underscores',
    document: { openapi: '3.0.3', info: { title: 'Swagger Petstore', version: '1' }, paths: {} },
    idl: 'namespace swagger_petstore\n',
    warnings: [],
  },
  {
    name: 'namespace: a title of letters and digits is only lower-cased',
    document: { openapi: '3.0.3', info: { title: 'PetStore3', version: '1' }, paths: {} },
    idl: 'namespace petstore3\n',
    warnings: [],
  },
  {
    name: 'namespace: a title that is no identifier by the rule is adjusted, with a warning',
    document: { openapi: '3.0.3', info: { title: '3D (Beta) API', version: '1' }, paths: {} },
    idl: 'namespace n3d__beta__api\n',
    warnings: [['/info/title', 'title "3D (Beta) API" adjusted to the namespace n3d__beta__api']],
  },

  // ---- Operations --------------------------------------------------------------------------------
  {
    name: 'operations: grouped by first tag, method <httpMethod><OperationId>, path and query parameters',
    document: openApiDocument({
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            tags: ['pets', 'other'],
            summary: 'List all pets',
            parameters: [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer', format: 'int32' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: ref('Pet') } } } } },
          },
        },
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          delete: { operationId: 'deletePet', tags: ['pets'], responses: { '204': { description: 'gone' } } },
        },
      },
      schemas: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
    }),
    idl: `namespace t

struct Pet {
    id           int
}

interface pets {
    // List all pets
    getListPets(limit int [format="int32"]) []Pet

    deleteDeletePet(petId string) bool [optional]
}
`,
    warnings: [],
  },
  {
    name: 'operations: no tags groups by first path segment; no operationId derives the name from the path',
    document: openApiDocument({
      paths: {
        '/stores/{storeId}/items': {
          get: {
            parameters: [{ name: 'storeId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string' } } } } },
          },
        },
        '/': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string' } } } } } } },
      },
    }),
    idl: `namespace t

interface stores {
    getStoresByStoreIdItems(storeId string) string
}

interface root {
    getRoot() string
}
`,
    warnings: [],
  },
  {
    name: 'operations: operationIds that are no identifiers, and methods named twice, are renamed with warnings',
    document: openApiDocument({
      paths: {
        '/a': { get: { operationId: 'repos/get-content', tags: ['repos'], responses: { '204': { description: '' } } } },
        '/b': { get: { operationId: 'repos_get-content', tags: ['repos'], responses: { '204': { description: '' } } } },
      },
    }),
    idl: `namespace t

interface repos {
    getReposGetContent() bool [optional]

    getReposGetContent_2() bool [optional]
}
`,
    warnings: [
      ['/paths/~1a/get/operationId', 'operationId "repos/get-content" is not an identifier; written as reposGetContent'],
      ['/paths/~1b/get/operationId', 'operationId "repos_get-content" is not an identifier; written as reposGetContent'],
      ['/paths/~1b/get', 'method name getReposGetContent is used twice in its interface; written as getReposGetContent_2'],
    ],
  },
  {
    name: 'operations: header and cookie parameters dropped, an optional query parameter is an optional parameter',
    document: openApiDocument({
      paths: {
        '/items': {
          get: {
            operationId: 'find',
            parameters: [
              { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
              { name: 'session', in: 'cookie', schema: { type: 'string' } },
              { name: 'page_size', in: 'query', schema: { type: 'integer' } },
            ],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string' } } } } },
          },
        },
      },
    }),
    idl: `namespace t

interface items {
    getFind(pageSize int [optional]) string
}
`,
    warnings: [
      ['/paths/~1items/get/parameters/0', 'header parameter "X-Trace" dropped'],
      ['/paths/~1items/get/parameters/1', 'cookie parameter "session" dropped'],
    ],
  },
  {
    name: 'operations: the request body is the parameter <operationId>Body; an inline body is hoisted',
    document: openApiDocument({
      paths: {
        '/pets': {
          post: {
            operationId: 'createPet',
            requestBody: { required: true, content: { 'application/json': { schema: ref('Pet') } } },
            responses: { '201': { description: 'made', content: { 'application/json': { schema: ref('Pet') } } } },
          },
          put: {
            operationId: 'renamePet',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
            },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'boolean' } } } } },
          },
        },
      },
      schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    }),
    idl: `namespace t

struct Pet {
    name         string  [optional]
}

struct renamePetBody {
    name         string
}

interface pets {
    postCreatePet(createPetBody Pet) Pet

    putRenamePet(renamePetBody renamePetBody) bool
}
`,
    warnings: [],
  },
  {
    name: 'operations: 200, 201, 204 and default pick the return type; other responses are dropped with warnings',
    document: openApiDocument({
      paths: {
        '/r': {
          get: {
            operationId: 'withDefault',
            responses: {
              default: { description: 'd', content: { 'application/json': { schema: { type: 'string' } } } },
              '404': { description: 'missing' },
            },
          },
          post: {
            operationId: 'created',
            responses: {
              '201': { description: 'c', content: { 'application/json': { schema: { type: 'integer' } } } },
              '204': { description: 'nothing' },
              '500': { description: 'boom' },
            },
          },
          put: {
            operationId: 'both',
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { type: 'boolean' } } } },
              default: { description: 'error', content: { 'application/json': { schema: { type: 'string' } } } },
            },
          },
        },
      },
    }),
    idl: `namespace t

interface r {
    getWithDefault() string

    postCreated() int [optional]

    putBoth() bool
}
`,
    warnings: [
      ['/paths/~1r/get/responses/404', 'response 404 dropped'],
      ['/paths/~1r/post/responses/500', 'response 500 dropped'],
      ['/paths/~1r/put/responses/default', 'response default dropped'],
    ],
  },
  {
    name: 'operations: an inline array response gives []<operationId>Response_item',
    document: openApiDocument({
      paths: {
        '/things': {
          get: returning(
            { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
            { operationId: 'listThings' },
          ),
        },
      },
    }),
    idl: `namespace t

struct listThingsResponse_item {
    id           string
}

interface things {
    getListThings() []listThingsResponse_item
}
`,
    warnings: [],
  },

  // ---- Conversion warnings -------------------------------------------------------------------------
  {
    name: 'warnings: oneOf and anyOf use the first type and name the JSON path',
    document: openApiDocument({
      schemas: {
        U: {
          type: 'object',
          properties: {
            one: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
            any: { anyOf: [ref('V'), { type: 'boolean' }] },
          },
        },
        V: { type: 'object', properties: {} },
      },
    }),
    idl: `namespace t

struct U {
    one          string  [optional]
    any          V       [optional]
}

struct V {
}
`,
    warnings: [
      [
        '/components/schemas/U/properties/one/oneOf',
        'oneOf with 2 alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (string) is used',
      ],
      [
        '/components/schemas/U/properties/any/anyOf',
        'anyOf with 2 alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (#/components/schemas/V) is used',
      ],
    ],
  },
  {
    name: 'warnings: security schemes are dropped',
    document: openApiDocument({
      components: { securitySchemes: { apiKey: { type: 'apiKey', name: 'X-Key', in: 'header' } } },
      security: [{ apiKey: [] }],
    }),
    idl: 'namespace t\n',
    warnings: [['/components/securitySchemes/apiKey', 'security scheme "apiKey" dropped']],
  },
  {
    name: 'warnings: webhooks and callbacks are dropped',
    document: openApiDocument({
      openapi: '3.1.0',
      webhooks: { newPet: { post: { responses: { '200': { description: 'ok' } } } } },
      paths: {
        '/subscribe': {
          post: {
            operationId: 'subscribe',
            callbacks: { onEvent: { '{$request.body#/url}': { post: { responses: { '200': { description: 'ok' } } } } } },
            responses: { '204': { description: '' } },
          },
        },
      },
    }),
    idl: `namespace t

interface subscribe {
    postSubscribe() bool [optional]
}
`,
    warnings: [
      ['/paths/~1subscribe/post/callbacks/onEvent', 'callback "onEvent" dropped'],
      ['/webhooks/newPet', 'webhook "newPet" dropped'],
    ],
  },
  {
    name: 'warnings: binary data dropped on request (a field, and an operation)',
    binary: 'drop',
    document: openApiDocument({
      paths: {
        '/upload': {
          post: {
            operationId: 'upload',
            // The struct hoisted for this parameter goes with the dropped operation.
            parameters: [
              { name: 'meta', in: 'query', required: true, schema: { type: 'object', properties: { tag: { type: 'string' } } } },
            ],
            requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
            responses: { '204': { description: '' } },
          },
        },
      },
      schemas: { File: { type: 'object', properties: { name: { type: 'string' }, data: { type: 'string', format: 'binary' } } } },
    }),
    idl: `namespace t

struct File {
    name         string  [optional]
}
`,
    warnings: [
      ['/components/schemas/File/properties/data', 'field data of struct File dropped'],
      ['/paths/~1upload/post/requestBody/content/application~1octet-stream/schema', 'operation POST /upload dropped'],
    ],
  },

  {
    name: 'warnings: a schema reached from several places warns once',
    document: openApiDocument({
      schemas: {
        Id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        A: { type: 'object', properties: { id: ref('Id') } },
        B: { type: 'object', properties: { id: ref('Id'), ids: { type: 'array', items: ref('Id') } } },
      },
    }),
    idl: `namespace t

struct A {
    id           string  [optional]
}

struct B {
    id           string    [optional]
    ids          []string  [optional]
}
`,
    warnings: [['/components/schemas/Id/oneOf', 'oneOf with 2 alternatives']],
  },

  // ---- Names -------------------------------------------------------------------------------------
  {
    name: 'names: inline objects are hoisted as <Struct>_<field>, _item and _value',
    document: openApiDocument({
      schemas: {
        Order: {
          type: 'object',
          properties: {
            address: { type: 'object', properties: { city: { type: 'string' } } },
            lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
            extras: { type: 'object', additionalProperties: { type: 'object', properties: { note: { type: 'string' } } } },
          },
        },
      },
    }),
    idl: `namespace t

struct Order {
    address      Order_address                  [optional]
    lines        []Order_lines_item             [optional]
    extras       map[string]Order_extras_value  [optional]
}

struct Order_address {
    city         string  [optional]
}

struct Order_lines_item {
    sku          string  [optional]
}

struct Order_extras_value {
    note         string  [optional]
}
`,
    warnings: [],
  },
  {
    name: 'names: schema names and titles made valid and unique, with warnings',
    document: openApiDocument({
      schemas: {
        'simple-user': { type: 'object', properties: {} },
        string: { type: 'object', properties: {} },
        first: { title: 'Repository', type: 'object', properties: {} },
        second: { title: 'Repository', type: 'object', properties: {} },
        '2fa': { type: 'string', enum: ['on'] },
      },
    }),
    idl: `namespace t

struct SimpleUser {
}

struct string_ {
}

struct Repository {
}

struct Repository_2 {
}

enum T2fa {
    on
}
`,
    warnings: [
      ['/components/schemas/simple-user', 'schema name "simple-user" is not a valid unique IDL identifier; written as SimpleUser'],
      ['/components/schemas/string', 'schema name "string" is not a valid unique IDL identifier; written as string_'],
      ['/components/schemas/second', 'schema title "Repository" is not a valid unique IDL identifier; written as Repository_2'],
      ['/components/schemas/2fa', 'schema name "2fa" is not a valid unique IDL identifier; written as T2fa'],
    ],
  },
  {
    name: 'names: property names that are no identifier or clash are renamed with warnings',
    document: openApiDocument({
      schemas: {
        Reactions: {
          type: 'object',
          required: ['+1', '-1', 'map', 'a_b', 'aB'],
          properties: {
            '+1': { type: 'integer' },
            '-1': { type: 'integer' },
            map: { type: 'string' },
            a_b: { type: 'string' },
            aB: { type: 'string' },
          },
        },
      },
    }),
    idl: `namespace t

struct Reactions {
    n1           int
    n1_2         int
    map_         string
    aB           string
    aB_2         string
}
`,
    warnings: [
      ['/components/schemas/Reactions/properties/+1', 'property "+1" of struct Reactions is written as field n1'],
      ['/components/schemas/Reactions/properties/-1', 'property "-1" of struct Reactions is written as field n1_2'],
      ['/components/schemas/Reactions/properties/map', 'property "map" of struct Reactions is written as field map_'],
      ['/components/schemas/Reactions/properties/aB', 'property "aB" of struct Reactions is written as field aB_2'],
    ],
  },
  {
    name: 'names: an interface named like a struct is renamed',
    document: openApiDocument({
      paths: { '/x': { get: { operationId: 'x', tags: ['Pet'], responses: { '204': { description: '' } } } } },
      schemas: { Pet: { type: 'object', properties: {} } },
    }),
    idl: `namespace t

struct Pet {
}

interface Pet_2 {
    getX() bool [optional]
}
`,
    warnings: [['/paths/~1x/get', 'interface name "Pet" is not a valid unique IDL identifier; written as Pet_2']],
  },
  {
    name: 'any value is json; several types are not expressed',
    document: openApiDocument({
      openapi: '3.1.0',
      schemas: { W: { type: 'object', required: ['any', 'multi'], properties: { any: {}, multi: { type: ['string', 'integer'] } } } },
    }),
    idl: `namespace t

struct W {
    any          json
    multi        string
}
`,
    warnings: [['/components/schemas/W/properties/multi/type', 'several types (string, integer): the IDL has no unions; string is used']],
  },

  // ---- Input -------------------------------------------------------------------------------------
  {
    name: 'input: YAML with anchors, aliases and merge keys',
    document: `openapi: 3.1.0
info: {title: Yaml Doc, version: '1'}
paths: {}
components:
  schemas:
    A:
      type: object
      properties:
        id: &id {type: string, description: An id.}
        otherId: *id
    B:
      <<: &common {type: object, required: [x]}
      properties: {x: {type: integer}}
    C:
      <<: *common
      properties: {x: {type: string}}
`,
    idl: `namespace yaml_doc

struct A {
    // An id.
    id           string  [optional]
    // An id.
    otherId      string  [optional]
}

struct B {
    x            int
}

struct C {
    x            string
}
`,
    warnings: [],
  },
];
