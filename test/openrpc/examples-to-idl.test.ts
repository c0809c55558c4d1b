/**
 * The OpenRPC project's example documents (`@open-rpc/examples`) converted to IDL: every one
 * converts, the IDL checks clean, and every method (by its wire name, or the documented rename),
 * param (name, whether required), result and error (code and message) is there. Schemas are
 * compared on the way back (examples-round-trip.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IdlModel } from '../../src/idl/model.js';
import { openRpcToIdl } from '../../src/openrpc/openrpc-to-idl.js';
import { expectChecksClean } from '../openapi/helpers.js';
import { dereference, EXAMPLES_DIR, exampleDocuments } from './example-documents.js';

/** The method of the model called `wireName` on the wire (`Interface.method`). */
function methodCalled(model: IdlModel, wireName: string) {
  const dot = wireName.lastIndexOf('.');
  const iface = model.interfaces.find((i) => i.name.text === wireName.slice(0, dot));
  return iface?.methods.find((m) => m.name.text === wireName.slice(dot + 1));
}

const examples = exampleDocuments();

describe('the @open-rpc/examples documents -> IDL', () => {
  it('finds all six documents', () => {
    expect(examples.map((e) => e.name)).toEqual([
      'api-with-examples-openrpc.json',
      'link-example-openrpc.json',
      'params-by-name-petstore-openrpc.json',
      'petstore-expanded-openrpc.json',
      'petstore-openrpc.json',
      'simple-math-openrpc.json',
    ]);
  });

  it.each(examples)('$name: every method, param, result and error is in the IDL, which checks clean', ({ name, document }) => {
    const result = openRpcToIdl({ text: readFileSync(join(EXAMPLES_DIR, name), 'utf8'), fileName: name });
    const model = expectChecksClean(result.idl);
    const renames = new Map(result.renamedMethods.map((r) => [r.from, r.to]));
    let methodCount = 0;
    for (const method of document.methods) {
      // Every name of these documents has no dot: each is renamed into the title's interface, warned at its name.
      const wireName = renames.get(method.name) ?? method.name;
      expect(result.warnings.some((w) => w.message.startsWith(`method "${method.name}" has no dot`))).toBe(true);
      const converted = methodCalled(model, wireName);
      expect(converted, `${name}: ${method.name} as ${wireName}`).toBeDefined();
      methodCount++;
      const params = method.params.map((p: unknown) => dereference(document, p));
      expect(converted!.parameters.map((p) => [p.name.text, p.optional !== true]).sort()).toEqual(
        params.map((p: any) => [p.name, p.required === true]).sort(),
      );
      expect(converted!.returnType).toBeDefined();
      const errors = (method.errors ?? []).map((e: unknown) => dereference(document, e));
      expect(converted!.raises.map((r) => model.errorsByName.get(r.text)).map((e) => [e!.code, e!.message])).toEqual(
        errors.map((e: any) => [e.code, e.message]),
      );
    }
    expect(model.interfaces.flatMap((i) => i.methods)).toHaveLength(methodCount);
  });

  it('keeps the petstore as expected, renames documented and warned', () => {
    const { document } = examples.find((e) => e.name === 'petstore-openrpc.json')!;
    const result = openRpcToIdl({ document });
    expect(result.idl).toBe(
      [
        'namespace petstore',
        '',
        'struct Pet {',
        '    id           int     [min=0]',
        '    name         string',
        '    tag          string  [optional]',
        '}',
        '',
        'errors {',
        '    100 PetsBusy "pets busy"',
        '}',
        '',
        'interface Petstore {',
        '    // List all pets',
        '    // @example [{"id":7,"name":"fluffy","tag":"poodle"}]',
        '    list_pets(limit int [optional, min=1]) []Pet raises(PetsBusy)',
        '',
        '    // Create a pet',
        '    // @example 7',
        '    create_pet(newPetName string, newPetTag string [optional]) int [min=0]',
        '',
        '    // Info for a specific pet',
        '    // @example {"name":"fluffy","tag":"poodle","id":7}',
        '    get_pet(petId int [min=0]) Pet',
        '}',
        '',
      ].join('\n'),
    );
    expect(result.renamedMethods).toEqual([
      { from: 'list_pets', to: 'Petstore.list_pets' },
      { from: 'create_pet', to: 'Petstore.create_pet' },
      { from: 'get_pet', to: 'Petstore.get_pet' },
    ]);
    expect(result.warnings.map((w) => w.pointer)).toContain('/components/schemas/Pets');
  });
});
