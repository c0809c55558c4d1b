/**
 * Acceptance: OpenRPC -> IDL -> OpenRPC keeps every method, param, result, error and schema of the
 * OpenRPC project's example documents (`@open-rpc/examples`), modulo the documented renames
 * (`renamedMethods`: names without a dot go into the title's interface), and every difference left
 * is one the conversion warned about, at the place in the original document. And the other way:
 * IDL -> OpenRPC -> IDL gives the IDL back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenRpc } from '../../src/openrpc/idl-to-openrpc.js';
import { openRpcToIdl } from '../../src/openrpc/openrpc-to-idl.js';
import { dereference, exampleDocuments } from './example-documents.js';
import { type Difference, schemaDifferences } from './schema-shape.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** Every difference between an original document and the one written back from its IDL. */
function differences(original: any, back: any, renames: Map<string, string>): Difference[] {
  const found: Difference[] = [];
  const backMethods = new Map<string, any>(back.methods.map((m: any) => [m.name, m]));
  original.methods.forEach((method: any, i: number) => {
    const at = `/methods/${i}`;
    const returned = backMethods.get(renames.get(method.name) ?? method.name);
    if (!returned) {
      found.push({ pointer: at, what: `method ${method.name} is missing` });
      return;
    }
    const params = method.params.map((p: any) => ({ param: dereference(original, p), site: p }));
    const backParams = new Map<string, any>(returned.params.map((p: any) => [dereference(back, p).name, dereference(back, p)]));
    params.forEach(({ param }: any, j: number) => {
      const pointer = `${at}/params/${j}`;
      const other = backParams.get(param.name);
      if (!other) {
        found.push({ pointer, what: `param ${param.name} is missing` });
        return;
      }
      if ((param.required === true) !== (other.required === true)) found.push({ pointer, what: `param ${param.name}: required differs` });
      found.push(
        ...schemaDifferences(original, param.schema, back, other.schema, `${schemaPointer(original, param, pointer)}`, {
          optional: param.required !== true,
        }),
      );
    });
    if (returned.params.length !== params.length) found.push({ pointer: `${at}/params`, what: 'more params written back' });
    const order = params.map(({ param }: any) => param.name).join(',');
    const backOrder = returned.params.map((p: any) => dereference(back, p).name).join(',');
    if (order !== backOrder) found.push({ pointer: `${at}/params`, what: `param order ${order} -> ${backOrder}` });
    if (method.result !== undefined) {
      const result = dereference(original, method.result);
      found.push(
        ...schemaDifferences(
          original,
          result.schema,
          back,
          dereference(back, returned.result).schema,
          schemaPointer(original, result, `${at}/result`),
        ),
      );
    }
    const codes = (errors: any[] | undefined, document: any) =>
      (errors ?? [])
        .map((e) => dereference(document, e))
        .map((e) => `${e.code} ${e.message}`)
        .sort()
        .join('; ');
    if (codes(method.errors, original) !== codes(returned.errors, back)) {
      found.push({ pointer: `${at}/errors`, what: `errors ${codes(method.errors, original)} -> ${codes(returned.errors, back)}` });
    }
  });
  if (back.methods.length !== original.methods.length) found.push({ pointer: '/methods', what: 'another number of methods' });
  const backSchemas = back.components?.schemas ?? {};
  for (const [key, schema] of Object.entries<any>(original.components?.schemas ?? {})) {
    const pointer = `/components/schemas/${key}`;
    if (!(key in backSchemas)) {
      found.push({ pointer, what: `schema ${key} is missing` });
      continue;
    }
    found.push(...schemaDifferences(original, schema, back, backSchemas[key], pointer));
  }
  return found;
}

/** Where a param's or result's schema is: in the component it was listed through, if any. */
function schemaPointer(document: any, descriptor: any, site: string): string {
  for (const [key, value] of Object.entries<any>(document.components?.contentDescriptors ?? {})) {
    if (value === descriptor) return `/components/contentDescriptors/${key}/schema`;
  }
  return `${site}/schema`;
}

/**
 * The differences each document keeps, all warned: component schemas that are aliases (the IDL
 * has none; their uses are kept) and a result that is only null (written back as a nullable bool).
 */
const EXPECTED: Record<string, Difference[]> = {
  'params-by-name-petstore-openrpc.json': [
    { pointer: '/methods/1/result/schema', what: 'type undefined -> boolean' },
    { pointer: '/components/schemas/Pets', what: 'schema Pets is missing' },
  ],
  'petstore-openrpc.json': [
    { pointer: '/components/schemas/PetId', what: 'schema PetId is missing' },
    { pointer: '/components/schemas/Pets', what: 'schema Pets is missing' },
  ],
  'simple-math-openrpc.json': [{ pointer: '/components/schemas/Integer', what: 'schema Integer is missing' }],
};

describe('@open-rpc/examples: OpenRPC -> IDL -> OpenRPC', () => {
  it.each(exampleDocuments())(
    '$name keeps every method, param, result, error and schema; each difference is warned',
    ({ name, document }) => {
      const converted = openRpcToIdl({ document, fileName: name });
      const back = idlToOpenRpc(compileIdl(converted.idl, 'converted.idl')).document;
      // Every method of these documents has a name without a dot: each is renamed, as documented.
      const renames = new Map(converted.renamedMethods.map((r) => [r.from, r.to]));
      expect([...renames.keys()]).toEqual(document.methods.map((m: { name: string }) => m.name));
      const found = differences(document, back, renames);
      expect(found).toEqual(EXPECTED[name] ?? []);
      const warned = new Set(converted.warnings.map((w) => w.pointer));
      expect(found.filter((d) => !warned.has(d.pointer))).toEqual([]);
    },
  );

  it('sees what a lost property, param, error or required flag would be (the comparison can fail)', () => {
    const { document } = exampleDocuments().find((e) => e.name === 'petstore-openrpc.json')!;
    const converted = openRpcToIdl({ document });
    const back = idlToOpenRpc(compileIdl(converted.idl, 'converted.idl')).document as any;
    const renames = new Map(converted.renamedMethods.map((r) => [r.from, r.to]));
    delete back.components.schemas.Pet.properties.tag;
    back.methods[1].params[1].required = true;
    back.methods[0].errors = [];
    // The Pet schema is reached three times (list_pets, get_pet, the component itself).
    expect(differences(document, back, renames).map((d) => `${d.pointer}: ${d.what}`)).toEqual([
      '/components/schemas/Pet: property tag only on one side',
      '/methods/0/errors: errors 100 pets busy -> ',
      '/methods/1/params/1: param newPetTag: required differs',
      '/components/schemas/Pet: property tag only on one side',
      '/components/schemas/PetId: schema PetId is missing',
      '/components/schemas/Pet: property tag only on one side',
      '/components/schemas/Pets: schema Pets is missing',
    ]);
  });
});

describe('IDL -> OpenRPC -> IDL', () => {
  it('reads the exact comments our documents carry (x-idl-comment: a tag with its argument; no generated namespace comment)', () => {
    const idl =
      'namespace shop\n\n// Shop things.\ninterface Shop {\n    // Finds one.\n    // @deprecated use findMany\n    find(id string) string\n}\n';
    expect(openRpcToIdl({ document: idlToOpenRpc(compileIdl(idl, 'shop.idl')).document }).idl).toBe(idl);
  });

  it.each(['playground/checkout.idl', 'test/generator/fixtures/everything.idl'])(
    '%s comes back as the same IDL but for error comments (OpenRPC error objects have no place for them)',
    (file) => {
      const path = join(REPO_ROOT, file);
      const model = compileIdl(readFileSync(path, 'utf8'), path);
      const converted = openRpcToIdl({ document: idlToOpenRpc(model).document });
      expect(converted.warnings).toEqual([]);
      expect(converted.renamedMethods).toEqual([]);
      const withoutErrorComments = (json: ReturnType<typeof toIdlJson>) =>
        JSON.parse(JSON.stringify(json, (key, value) => (key === 'errors' ? value.map(({ comment: _, ...error }: any) => error) : value)));
      expect(withoutErrorComments(toIdlJson(compileIdl(converted.idl, path)))).toEqual(withoutErrorComments(toIdlJson(model)));
    },
  );
});
