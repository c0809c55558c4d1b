/**
 * Unions in OpenAPI, both ways (docs/openapi.md, "Unions").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';

const IDL = readFileSync(join(import.meta.dirname, 'fixtures', 'unions.idl'), 'utf8');
type Schemas = Record<string, Record<string, unknown>>;
const schemasOf = (document: Record<string, unknown>) => (document as { components: { schemas: Schemas } }).components.schemas;

describe('IDL -> OpenAPI', () => {
  it('3.1: a union is oneOf its variants, each requiring its tag (const), with discriminator and mapping', () => {
    const { document, warnings } = idlToOpenApi([compileIdl(IDL, 'unions.idl')]);
    expect(warnings).toEqual([]);
    const schemas = schemasOf(document);
    expect(schemas.Payment).toEqual({
      type: 'object',
      oneOf: [{ $ref: '#/components/schemas/Payment_card' }, { $ref: '#/components/schemas/Payment_bank_transfer' }],
      discriminator: {
        propertyName: 'type',
        mapping: { card: '#/components/schemas/Payment_card', bank_transfer: '#/components/schemas/Payment_bank_transfer' },
      },
      description: 'How a customer pays.',
    });
    expect(schemas.Payment_card).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Card' },
        { type: 'object', properties: { type: { type: 'string', const: 'card' } }, required: ['type'] },
      ],
      'x-idl-variant-of': 'Payment',
      description: 'Paid by card.',
    });
    expect(schemas.Payment_bank_transfer).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/Transfer' }, { properties: { type: { const: 'bank_transfer' } } }],
    });
    // Right after their union, in tag order.
    const keys = Object.keys(schemas);
    expect(keys.slice(keys.indexOf('Payment'), keys.indexOf('Payment') + 3)).toEqual(['Payment', 'Payment_card', 'Payment_bank_transfer']);
    expect(schemas.Delivery).toMatchObject({
      discriminator: { propertyName: 'kind', mapping: { pickup: '#/components/schemas/Delivery_pickup' } },
    });
    expect(schemas.Order.properties).toEqual({
      payment: { $ref: '#/components/schemas/Payment' },
      previous: { oneOf: [{ $ref: '#/components/schemas/Payment' }, { type: 'null' }] },
      history: { type: 'array', items: { $ref: '#/components/schemas/Payment' } },
      byCountry: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Payment' } },
    });
    const pay = (document as any).paths['/Shop/pay'].post;
    expect(pay.requestBody.content['application/json'].schema.properties.payment).toEqual({ $ref: '#/components/schemas/Payment' });
    expect(pay.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Payment' });
  });

  it('3.0: the tag is an enum of one value; a nullable reference points to a nullable copy of the union', () => {
    const { document } = idlToOpenApi([compileIdl(IDL, 'unions.idl')], { version: '3.0' });
    const schemas = schemasOf(document);
    expect((schemas.Payment_card.allOf as unknown[])[1]).toEqual({
      type: 'object',
      properties: { type: { type: 'string', enum: ['card'] } },
      required: ['type'],
    });
    expect(schemas.Order.properties).toMatchObject({ previous: { $ref: '#/components/schemas/PaymentNullable' } });
    expect(schemas.PaymentNullable).toMatchObject({
      type: 'object',
      nullable: true,
      discriminator: schemas.Payment.discriminator,
      oneOf: schemas.Payment.oneOf,
      'x-idl-nullable-of': 'Payment',
    });
    // Only ever referenced nullable (an [optional] result): the component is nullable itself.
    expect(schemas.Delivery).toMatchObject({ type: 'object', nullable: true });
    expect(schemas.DeliveryNullable).toBeUndefined();
  });
});

const idlOf = (document: Record<string, unknown>) => openApiToIdl({ document, fileName: 'doc.json' });

describe('OpenAPI -> IDL', () => {
  it('round trip: IDL -> OpenAPI -> IDL gives the same unions, variant comments included (3.1 and 3.0), without warnings', () => {
    const source = compileIdl(IDL, 'unions.idl');
    for (const version of ['3.1', '3.0'] as const) {
      const { document } = idlToOpenApi([source], { version });
      const back = idlOf(document);
      expect(back.warnings).toEqual([]);
      const json = toIdlJson(compileIdl(back.idl, 'unions.idl'));
      expect(json.unions).toEqual(toIdlJson(source).unions);
      expect(json.structs?.find((s) => s.name === 'Order')).toEqual(toIdlJson(source).structs?.find((s) => s.name === 'Order'));
      // OpenAPI -> IDL -> OpenAPI keeps the discriminator.
      const again = schemasOf(idlToOpenApi([compileIdl(back.idl, 'unions.idl')], { version }).document);
      expect(again.Payment).toEqual(schemasOf(document).Payment);
    }
  });

  it('a discriminated oneOf of $refs: tags from mapping, else the schema names; the tag property leaves the structs', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: {},
      components: {
        schemas: {
          Pet: {
            oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }, { type: 'null' }],
            discriminator: { propertyName: 'pet_type', mapping: { cat: '#/components/schemas/Cat' } },
          },
          Cat: { type: 'object', required: ['pet_type'], properties: { pet_type: { type: 'string' }, hunts: { type: 'boolean' } } },
          Dog: { type: 'object', properties: { pet_type: { type: 'string' }, bark: { type: 'boolean' } } },
        },
      },
    };
    const { idl, warnings } = idlOf(document);
    expect(warnings).toEqual([]);
    // The discriminator is named as the field would be (camelCase, docs/openapi.md "Names").
    expect(idl).toContain('union Pet [discriminator=petType] {\n    cat Cat\n    Dog Dog\n}');
    expect(idl).not.toMatch(/petType +string/);
  });

  it('a oneOf without discriminator is a union when one property holds a distinct constant in every member', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Shapes', version: '1' },
      paths: {},
      components: {
        schemas: {
          Shape: {
            anyOf: [
              { type: 'object', properties: { shape: { const: 'circle' }, radius: { type: 'number' } }, required: ['shape'] },
              { $ref: '#/components/schemas/Square' },
            ],
          },
          Square: {
            type: 'object',
            properties: { shape: { type: 'string', enum: ['square'] }, side: { type: 'number' } },
            required: ['shape'],
          },
          Mixed: { oneOf: [{ $ref: '#/components/schemas/Square' }, { type: 'object', properties: { shape: { type: 'string' } } }] },
          // The constant is optional in one member: a value may leave it out, so it tells nothing apart.
          Loose: { oneOf: [{ $ref: '#/components/schemas/Square' }, { type: 'object', properties: { shape: { const: 'dot' } } }] },
        },
      },
    };
    const { idl, warnings } = idlOf(document);
    expect(idl).toMatch(/union Shape \[discriminator=shape\] \{\n {4}circle Shape_circle\n {4}square Square\n\}/);
    expect(idl).toMatch(/struct Square \{\n {4}side +float +\[optional\]\n\}/);
    // No constant tells Mixed's members apart: the first alternative, as before.
    expect(warnings.map((w) => `${w.pointer}: ${w.message}`)).toEqual([
      '/components/schemas/Mixed/oneOf: oneOf with 2 alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (#/components/schemas/Square) is used',
      '/components/schemas/Loose/oneOf: oneOf with 2 alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (#/components/schemas/Square) is used',
    ]);
  });

  it('an example of a union-typed result that names no variant is dropped with a warning; a valid one is kept', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pet': {
          get: {
            operationId: 'getPet',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: { hunts: true } } },
              },
            },
          },
        },
        '/other': {
          get: {
            operationId: 'getOther',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: { kind: 'cat', hunts: true } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: 'kind', mapping: { cat: 'Cat' } } },
          Cat: { type: 'object', properties: { hunts: { type: 'boolean' } } },
        },
      },
    };
    const { idl, warnings } = idlOf(document);
    expect(warnings.map((w) => w.message)).toEqual([
      "the example of pet.getGetPet is dropped: at $.kind: the tag 'kind' of union 'Pet' is missing (one of \"cat\")",
    ]);
    expect(idl).toContain('@example {"kind":"cat","hunts":true}');
    compileIdl(idl, 'pets.idl');
  });

  it("@readme/oas-examples' discriminators.json: its discriminated oneOfs become unions, and keep their discriminator back in OpenAPI", () => {
    const file = join(import.meta.dirname, '..', '..', 'node_modules', '@readme', 'oas-examples', '3.0', 'json', 'discriminators.json');
    const document = JSON.parse(readFileSync(file, 'utf8'));
    const { idl, warnings } = idlOf(document);
    const model = compileIdl(idl, 'discriminators.idl');
    const unions = toIdlJson(model).unions ?? [];
    expect(unions.length).toBeGreaterThan(0);
    expect(warnings.filter((w) => w.message.includes('no discriminator and no property')).length).toBeLessThan(
      JSON.stringify(document).split('"oneOf"').length - 1,
    );
    const back = schemasOf(idlToOpenApi([model], { version: '3.0' }).document);
    for (const union of unions) expect(back[union.name].discriminator).toMatchObject({ propertyName: union.discriminator });
  });
});
