/**
 * Splitting a valid IDL file into several files that import each other changes names, not the
 * contract (docs/idl.md, "Several files"): for random files split at random places
 * (test/idl/split-files.ts), the JSON form of the split files is the single file's once qualified
 * names are read back (`part0.Money` -> `Money`, error `part0.NotFound` -> `<root>.NotFound`), and
 * the runtime's validators built from either JSON form accept and reject the same params and results.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { IdlJson, IdlJsonType } from '../../runtime/idl-json.js';
import { compileValidators, type ValidatorTable } from '../../runtime/validation.js';
import { compileIdl } from '../../src/idl/compile.js';
import { printIdl } from '../../src/idl/format.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi } from '../../src/openapi/index.js';
import { mutatedValue, type Schema, validValue } from '../openapi/schema-arbitrary.js';
import { memoryHost } from './memory-host.js';
import { randomIdlFile } from './random-idl.js';
import { splitIntoFiles } from './split-files.js';

const RUNS = 150;
/** Values checked per run: params and a result of one method. */
const VALUES_PER_RUN = 6;

/** The split JSON form with every name as the single file has it, arrays in a stable order. */
function readBack(json: IdlJson, importedNamespaces: readonly string[]): IdlJson {
  const root = json.rootNamespace;
  const plain = (name: string) => {
    const dot = name.indexOf('.');
    return dot > 0 && importedNamespaces.includes(name.slice(0, dot)) ? name.slice(dot + 1) : name;
  };
  const type = (t: IdlJsonType): IdlJsonType => {
    if ('array' in t) return { array: type(t.array) };
    if ('mapValue' in t) return { mapValue: type(t.mapValue) };
    if ('userDefined' in t) return { userDefined: plain(t.userDefined) };
    return t;
  };
  return sortedByName({
    ...json,
    interfaces: json.interfaces?.map((iface) => ({
      ...iface,
      name: plain(iface.name),
      namespace: root,
      methods: iface.methods?.map((method) => ({
        ...method,
        parameters: method.parameters?.map((p) => ({ ...p, type: type(p.type) })),
        returnType: type(method.returnType),
        ...(method.raises ? { raises: method.raises.map(plain) } : {}),
      })),
    })),
    structs: json.structs?.map((struct) => ({
      ...struct,
      name: plain(struct.name),
      namespace: root,
      ...(struct.extends ? { extends: plain(struct.extends) } : {}),
      fields: struct.fields?.map((field) => ({ ...field, type: type(field.type) })),
    })),
    enums: json.enums?.map((e) => ({ ...e, name: plain(e.name), namespace: root })),
    errors: json.errors?.map((error) => ({
      ...error,
      name: `${root}.${plain(error.name.slice(error.namespace === root ? root.length + 1 : 0))}`,
      namespace: root,
    })),
  });
}

/**
 * Declarations sorted by name, checksum left out: the split files list their declarations file by
 * file, and their checksum qualifies imported names by the family's rule (docs/protocol.md §2).
 */
function sortedByName(json: IdlJson): IdlJson {
  const byName = <T extends { name: string }>(list: T[] | undefined) =>
    list && [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const { checksum: _, ...rest } = json;
  return JSON.parse(
    JSON.stringify({
      ...rest,
      checksum: '',
      interfaces: byName(json.interfaces),
      structs: byName(json.structs),
      enums: byName(json.enums),
      errors: byName(json.errors),
    }),
  ) as IdlJson;
}

/** The validators of `table` under the method names of the single file. */
function byPlainMethodName(table: ValidatorTable, json: IdlJson, importedNamespaces: readonly string[]): ValidatorTable {
  const out: ValidatorTable = {};
  for (const iface of json.interfaces ?? []) {
    const dot = iface.name.indexOf('.');
    const plain = dot > 0 && importedNamespaces.includes(iface.name.slice(0, dot)) ? iface.name.slice(dot + 1) : iface.name;
    for (const method of iface.methods ?? []) out[`${plain}.${method.name}`] = table[`${iface.name}.${method.name}`];
  }
  return out;
}

test('split files: the same JSON form modulo qualified names, and the same validation', () => {
  const seen = { accepted: 0, rejected: 0, splitAcross: 0 };
  fc.assert(
    fc.property(fc.gen(), (g) => {
      // No NUL in comments and messages: the loader takes a file holding one for binary data.
      const single = compileIdl(printIdl(randomIdlFile(g)).replaceAll('\u0000', ' '), 'random.idl');
      const split = splitIntoFiles(g, single.file);
      const model = compileIdl(split.files[split.root], split.root, { host: memoryHost(split.files) });
      const imported = Object.values(split.namespaces);
      expect(model.files.map((file) => file.fileName).sort()).toEqual(Object.keys(split.files).sort());
      if (model.files.some((file) => file.fileName !== split.root && model.structs.some((s) => s.span.file === file.fileName))) {
        seen.splitAcross++;
      }

      const singleJson = toIdlJson(single);
      const splitJson = toIdlJson(model);
      expect(readBack(splitJson, imported)).toEqual(sortedByName(singleJson));

      const methods = (singleJson.interfaces ?? []).flatMap((iface) => (iface.methods ?? []).map((method) => ({ iface, method })));
      if (methods.length === 0) return;
      const { iface, method } = methods[g(fc.nat, { max: methods.length - 1 })];
      const key = `${iface.name}.${method.name}`;
      const expected = compileValidators(singleJson)[key];
      const actual = byPlainMethodName(compileValidators(splitJson), splitJson, imported)[key];
      // Values from the single file's OpenAPI document: valid ones and mutations of them.
      const document = idlToOpenApi([single]).document as Schema;
      const operation = document.paths[`/${iface.name}/${method.name}`].post;
      const parameterSchemas: Schema = operation.requestBody.content['application/json'].schema.properties ?? {};
      // A stream method's items: the item schema of its text/event-stream answer.
      const answer: Schema = operation.responses['200'].content;
      const resultSchema: Schema = answer['application/json']?.schema ?? answer['text/event-stream']['x-itemSchema'];
      const sometimesMutated = (schema: Schema) =>
        validValue(document, schema).chain((value) => fc.oneof(fc.constant(value), mutatedValue(value)));
      for (let i = 0; i < VALUES_PER_RUN; i++) {
        const checks = [
          ...(method.parameters ?? []).map((p, index) => ({
            schema: parameterSchemas[p.name],
            single: expected.params[index],
            split: actual.params[index],
          })),
          { schema: resultSchema, single: expected.result, split: actual.result },
        ];
        const { schema, single: singleValidator, split: splitValidator } = checks[g(fc.nat, { max: checks.length - 1 })];
        const value = g(() => sometimesMutated(schema));
        const accepted = singleValidator.check(value);
        expect(splitValidator.check(value), JSON.stringify(value)).toBe(accepted);
        expect(splitValidator.errors(value).map((issue) => issue.path)).toEqual(singleValidator.errors(value).map((issue) => issue.path));
        seen[accepted ? 'accepted' : 'rejected']++;
      }
    }),
    { numRuns: RUNS },
  );
  // The property saw both kinds of value, and files that really hold declarations of their own.
  expect(seen.accepted).toBeGreaterThan(0);
  expect(seen.rejected).toBeGreaterThan(0);
  expect(seen.splitAcross).toBeGreaterThan(0);
});
