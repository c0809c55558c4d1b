/**
 * Stream methods in OpenAPI, both ways (docs/openapi.md, "Stream methods"): the 200 answer is
 * `text/event-stream` with the item schema under `x-itemSchema`, the operation `x-idlrpc-stream`;
 * `-openapi-to-idl` reads `x-itemSchema` or OpenAPI 3.2's `itemSchema` back into a stream method.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createRpcServer, type HttpAnswer } from '../../runtime/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';
import { comparableModel, expectChecksClean, openApiDocument, strictProblems } from './helpers.js';

const IDL = `namespace shop

struct Order {
    id      string
    status  string
}

errors {
    1001 OrderNotFound "no such order"
}

interface OrderService {
    // The order as it changes.
    watchOrder(orderId string) stream Order raises(OrderNotFound)

    ticks() stream int [min=0]

    getOrder(orderId string) Order raises(OrderNotFound)
}
`;

type Operation = { responses: Record<string, { content?: Record<string, Record<string, unknown>> }> } & Record<string, unknown>;
const operationOf = (document: Record<string, unknown>, path: string) => (document.paths as Record<string, { post: Operation }>)[path].post;

describe('IDL -> OpenAPI', () => {
  for (const version of ['3.1', '3.0'] as const) {
    it(`${version}: a stream method answers text/event-stream, its item schema under x-itemSchema, marked x-idlrpc-stream`, () => {
      const { document, warnings } = idlToOpenApi([compileIdl(IDL, 'shop.idl')], { version });
      expect(warnings).toEqual([]);
      const watch = operationOf(document, '/OrderService/watchOrder');
      expect(watch['x-idlrpc-stream']).toBe(true);
      expect(watch.responses['200'].content).toEqual({
        'text/event-stream': { schema: { type: 'string' }, 'x-itemSchema': { $ref: '#/components/schemas/Order' } },
      });
      expect(Object.keys(watch.responses)).toEqual(['200', '400', '406', '422', '500', '503']);
      expect(operationOf(document, '/OrderService/ticks').responses['200'].content).toEqual({
        'text/event-stream': {
          schema: { type: 'string' },
          'x-itemSchema': { type: 'integer', format: 'int64', minimum: 0, maximum: 9007199254740991 },
        },
      });
    });
  }

  it('a plain method beside it is described as before', () => {
    const { document } = idlToOpenApi([compileIdl(IDL, 'shop.idl')]);
    const get = operationOf(document, '/OrderService/getOrder');
    expect(get['x-idlrpc-stream']).toBeUndefined();
    expect(get.responses['200'].content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Order' } } });
  });

  it('the document passes the strict linters and validators', async () => {
    for (const version of ['3.1', '3.0'] as const) {
      expect(await strictProblems(idlToOpenApi([compileIdl(IDL, 'shop.idl')], { version }).document)).toEqual([]);
    }
  }, 60_000);
});

describe('OpenAPI -> IDL', () => {
  it('our document converts back to the same contract, stream methods included', () => {
    for (const version of ['3.1', '3.0'] as const) {
      const { document } = idlToOpenApi([compileIdl(IDL, 'shop.idl')], { version });
      const back = openApiToIdl({ document, fileName: 'shop.json' });
      expect(back.warnings).toEqual([]);
      expect(back.idl).toContain('    watchOrder(orderId string) stream Order raises(OrderNotFound)\n');
      expect(back.idl).toContain('    ticks() stream int [min=0]\n');
      expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(compileIdl(IDL, 'shop.idl')));
    }
  });

  const eventStreamDocument = (media: Record<string, unknown>) =>
    openApiDocument({
      openapi: '3.1.0',
      paths: {
        '/events': {
          get: { operationId: 'events', responses: { '200': { description: 'events', content: { 'text/event-stream': media } } } },
        },
      },
      schemas: { Event: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    });

  it("OpenAPI 3.2's itemSchema makes a stream method of its items", () => {
    const result = openApiToIdl({
      document: eventStreamDocument({ itemSchema: { $ref: '#/components/schemas/Event' } }) as Record<string, unknown>,
      fileName: 'events.json',
    });
    expect(result.idl).toContain('    getEvents() stream Event\n');
    expectChecksClean(result.idl);
  });

  it('x-itemSchema too; a nullable item loses its null, with a warning at the item schema', () => {
    const result = openApiToIdl({
      document: eventStreamDocument({ schema: { type: 'string' }, 'x-itemSchema': { type: ['string', 'null'] } }) as Record<
        string,
        unknown
      >,
      fileName: 'events.json',
    });
    expect(result.idl).toContain('    getEvents() stream string\n');
    expect(result.warnings.map((w) => `${w.pointer}: ${w.message}`)).toEqual([
      '/paths/~1events/get/responses/200/content/text~1event-stream/x-itemSchema: null items dropped: the items of an IDL stream are values, never null',
    ]);
    expectChecksClean(result.idl);
  });

  it('an inline object item is hoisted as the struct <operationId>Item', () => {
    const result = openApiToIdl({
      document: eventStreamDocument({ itemSchema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] } }) as Record<
        string,
        unknown
      >,
      fileName: 'events.json',
    });
    expect(result.idl).toContain('struct eventsItem {\n    n            string\n}\n');
    expect(result.idl).toContain('    getEvents() stream eventsItem\n');
    expectChecksClean(result.idl);
  });

  it('text/event-stream without an item schema stays a plain method of its schema (a string)', () => {
    const result = openApiToIdl({
      document: eventStreamDocument({ schema: { type: 'string' } }) as Record<string, unknown>,
      fileName: 'events.json',
    });
    expect(result.idl).toContain('    getEvents() string\n');
  });
});

describe('the document describes what the server answers', () => {
  const model = compileIdl(IDL, 'shop.idl');
  const document = idlToOpenApi([model]).document as Record<string, any>;
  const server = createRpcServer({
    idl: toIdlJson(model),
    logger: { error() {}, warn() {} } as never,
    handlers: {
      OrderService: {
        async *watchOrder(orderId: string) {
          yield { id: orderId, status: 'pending' };
          yield { id: orderId, status: 'paid' };
        },
        async *ticks() {
          yield 1;
        },
        getOrder: (orderId: string) => ({ id: orderId, status: 'paid' }),
      },
    },
  });
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const call = (accept: string) =>
    server.handleHttp({
      method: 'POST',
      path: '/OrderService/watchOrder',
      body: JSON.stringify({ orderId: 'o1' }),
      headers: { 'content-type': 'application/json', accept },
    });
  const textOf = async (answer: HttpAnswer) => {
    let text = '';
    for (let chunk = await answer.stream?.next(); chunk !== undefined; chunk = await answer.stream?.next()) text += chunk;
    return text;
  };
  const responses = document.paths['/OrderService/watchOrder'].post.responses;

  it('200: the media type the document names, each item event a value its x-itemSchema accepts', async () => {
    const answer = await call('text/event-stream');
    expect(answer.status).toBe(200);
    const media = responses['200'].content;
    expect(Object.keys(media)).toEqual([answer.headers['content-type']]);
    const validate = ajv.compile({ ...media['text/event-stream']['x-itemSchema'], components: document.components });
    const items = (await textOf(answer))
      .split('\n\n')
      .filter((event) => event.startsWith('event: item\n'))
      .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 'data: '.length)));
    expect(items).toEqual([
      { id: 'o1', status: 'pending' },
      { id: 'o1', status: 'paid' },
    ]);
    for (const item of items) expect(validate(item), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ id: 'o1' })).toBe(false);
  });

  it('406: a request whose Accept excludes text/event-stream gets the listed status and the error schema', async () => {
    const answer = await call('application/json');
    expect(answer.status).toBe(406);
    const validate = ajv.compile({ ...responses['406'].content['application/json'].schema, components: document.components });
    const body = JSON.parse(answer.body);
    expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    expect(body).toMatchObject({ code: -32600 });
  });
});
