/**
 * The result serializers generated from the IDL (src/codegen/emit-serializers.ts): property tests
 * over an IDL with every type form (fixtures/every-type.idl), then a generated server on the wire.
 *
 * For every value the generated validator accepts (extra keys, any key order, undefined optional
 * fields, -0, lone surrogates, toJSON), JSON.parse of the serializer's text deep-equals
 * JSON.stringify of the value restricted to the IDL's fields (`restrict`, what docs/protocol.md
 * says); with the keys in IDL order and no extras the text is JSON.stringify's, byte for byte.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import type { IdlJson, IdlJsonStruct, IdlJsonType, RpcServer, RpcServerOptions, ValidatorTable } from '../../runtime/index.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const idlFile = path.join(repoRoot, 'test/runtime/fixtures/every-type.idl');

interface EverythingModule {
  everythingIdl: IdlJson;
  validators: ValidatorTable;
  /** Not exported by generated code: the test adds the export (see `importModule`). */
  serializers: Record<string, (value: unknown) => string | undefined>;
  createEverythingServer(handlers: Record<string, object>, options?: Partial<RpcServerOptions>): RpcServer;
}

/** The generated module, with its (internal) serializer table exported too, written under test-output/ and imported. */
async function importModule(): Promise<EverythingModule> {
  const { js } = generateModule(compileIdl(readFileSync(idlFile, 'utf8'), 'every-type.idl'), {
    runtimeImport: pathToFileURL(path.join(repoRoot, 'runtime/index.ts')).href,
    runtimeClientImport: pathToFileURL(path.join(repoRoot, 'runtime/client.ts')).href,
    sourceFile: 'every-type.idl',
  });
  expect(js).toContain('\nconst serializers = {');
  const dir = path.join(repoRoot, 'test-output/runtime');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `every-type-${process.pid}.mjs`);
  writeFileSync(file, `${js}\nexport { serializers };\n`);
  return (await import(pathToFileURL(file).href)) as EverythingModule;
}

let generated: EverythingModule;
let structs: Map<string, IdlJsonStruct>;
let enums: Map<string, string[]>;
beforeAll(async () => {
  generated = await importModule();
  structs = new Map((generated.everythingIdl.structs ?? []).map((s) => [s.name, s]));
  enums = new Map((generated.everythingIdl.enums ?? []).map((e) => [e.name, (e.values ?? []).map((v) => v.name)]));
});

/** A struct's fields, its parents' first (IDL order on the wire). */
function fieldsOf(name: string): NonNullable<IdlJsonStruct['fields']> {
  const chain: IdlJsonStruct[] = [];
  for (let struct = structs.get(name); struct; struct = struct.extends ? structs.get(struct.extends) : undefined) chain.unshift(struct);
  return chain.flatMap((struct) => struct.fields ?? []);
}

/** Strings JSON escapes, or that are odd object keys, among ordinary ones. */
const strings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '"',
    '\\',
    '\u2028\u2029',
    '\ud800',
    'a\udc00b',
    '\udc00\ud800',
    '😀',
    '\u0000\u001f\u007f',
    '__proto__',
    'constructor',
    'toJSON',
    '',
  ),
);
const floats = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 1e300, -1e-300, 5e-324, 0.1, 2 ** 53));
const ints = fc.oneof(fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }), fc.constantFrom(-0, 2 ** 53 - 1, -(2 ** 53 - 1)));

/** A map as JSON.parse would build it: every key an own property, `__proto__` too. */
const mapOf = (values: fc.Arbitrary<unknown>) =>
  fc.array(fc.tuple(strings, values), { maxLength: 4 }).map((entries) => Object.fromEntries(entries));

/**
 * Values of an IDL type that its validator accepts, as plain objects with the keys in IDL order
 * and no extras. Past depth 3 arrays and maps are empty and optional structs absent (recursion ends).
 */
function canonical(type: IdlJsonType, depth = 0): fc.Arbitrary<unknown> {
  if ('builtIn' in type) {
    return ({ string: strings, int: ints, float: floats, bool: fc.boolean() } as Record<string, fc.Arbitrary<unknown>>)[type.builtIn];
  }
  if ('array' in type) return depth > 3 ? fc.constant([]) : fc.array(canonical(type.array, depth + 1), { maxLength: 3 });
  if ('mapValue' in type) return depth > 3 ? fc.constant({}) : mapOf(canonical(type.mapValue, depth + 1));
  const values = enums.get(type.userDefined);
  if (values) return fc.constantFrom(...values);
  const fields = fieldsOf(type.userDefined).map((field) => {
    if (!field.optional) return canonical(field.type, depth + 1).map((v) => [[field.name, v]]);
    // Absent, undefined, null or a value; past the depth limit absent (a recursive struct ends).
    const present =
      depth > 3 && 'userDefined' in field.type && structs.has(field.type.userDefined)
        ? fc.constant(null)
        : canonical(field.type, depth + 1);
    return fc.oneof(
      fc.constant([]),
      fc.constant([[field.name, undefined]]),
      fc.constant([[field.name, null]]),
      present.map((v) => [[field.name, v]]),
    );
  });
  return fc.tuple(...fields).map((parts) => Object.fromEntries(parts.flat() as [string, unknown][]));
}

/**
 * The same values as a handler may return them: structs with extra keys, keys in any order, and
 * some answering through `toJSON` (returning another such value of the struct).
 */
function loose(type: IdlJsonType, depth = 0): fc.Arbitrary<unknown> {
  if ('builtIn' in type || enums.has((type as { userDefined: string }).userDefined)) return canonical(type, depth);
  if ('array' in type) return depth > 3 ? fc.constant([]) : fc.array(loose(type.array, depth + 1), { maxLength: 3 });
  if ('mapValue' in type) return depth > 3 ? fc.constant({}) : mapOf(loose(type.mapValue, depth + 1));
  const name = (type as { userDefined: string }).userDefined;
  const fields = fieldsOf(name).map((field) => {
    if (!field.optional) return loose(field.type, depth + 1).map((v) => [[field.name, v]]);
    const present =
      depth > 3 && 'userDefined' in field.type && structs.has(field.type.userDefined) ? fc.constant(null) : loose(field.type, depth + 1);
    return fc.oneof(
      fc.constant([]),
      fc.constant([[field.name, undefined]]),
      fc.constant([[field.name, null]]),
      present.map((v) => [[field.name, v]]),
    );
  });
  const extras = fc.array(fc.tuple(strings, fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 });
  const shuffled = (entries: [string, unknown][]) =>
    fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map((e) => Object.fromEntries(e));
  return fc
    .tuple(fc.tuple(...fields), extras)
    .chain(([parts, extra]) => {
      // An extra key never takes the name of a field, present or left out (the value must stay valid).
      const known = new Set(fieldsOf(name).map((field) => field.name));
      const entries = [...(parts.flat() as [string, unknown][]), ...extra.filter(([key]) => !known.has(key) && key !== 'toJSON')];
      return fc.tuple(shuffled(entries), fc.boolean(), depth < 2 ? loose(type, depth + 2) : fc.constant(undefined));
    })
    .map(([value, answersWithToJson, other]) => {
      if (answersWithToJson && other !== undefined) Object.defineProperty(value, 'toJSON', { value: () => other, enumerable: false });
      return value;
    });
}

/** The value restricted to the IDL's fields, as docs/protocol.md defines it: toJSON applied first, then only known fields. */
function restrict(value: unknown, type: IdlJsonType, key = ''): unknown {
  let v = value;
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  if ('builtIn' in type || enums.has((type as { userDefined: string }).userDefined)) return v;
  if ('array' in type) return (v as unknown[]).map((item, i) => restrict(item, type.array, String(i)));
  if ('mapValue' in type) {
    const map = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(map).map((k) => [k, restrict(map[k], type.mapValue, k)]));
  }
  const restricted: Record<string, unknown> = {};
  for (const field of fieldsOf((type as { userDefined: string }).userDefined)) {
    const f = (v as Record<string, unknown>)[field.name];
    if (f === undefined) continue;
    Object.defineProperty(restricted, field.name, {
      value: f === null ? null : restrict(f, field.type, field.name),
      enumerable: true,
    });
  }
  return restricted;
}

/** Every method of the fixture: its key, result type and whether the result is optional. */
function methods() {
  return (generated.everythingIdl.interfaces ?? []).flatMap((iface) =>
    (iface.methods ?? []).map((method) => ({
      key: `${iface.name}.${method.name}`,
      type: method.returnType,
      optional: method.returnOptional === true,
    })),
  );
}

// toEqual, not toStrictEqual: a map key `constructor` makes toStrictEqual compare its values as types.
const resultOf = (arbitrary: fc.Arbitrary<unknown>, optional: boolean) =>
  optional ? fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary, weight: 4 }) : arbitrary;

describe('generated result serializers (property tests over every type form)', () => {
  it('write the IDL order with no extras byte for byte as JSON.stringify does', () => {
    for (const { key, type, optional } of methods()) {
      const serialize = generated.serializers[key];
      const validator = generated.validators[key].result;
      fc.assert(
        fc.property(resultOf(canonical(type), optional), (value) => {
          expect(validator.check(value)).toBe(true);
          expect(serialize(value)).toBe(JSON.stringify(value));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('write any accepted value as JSON.stringify of the value restricted to the IDL fields', () => {
    for (const { key, type, optional } of methods()) {
      const serialize = generated.serializers[key];
      const validator = generated.validators[key].result;
      fc.assert(
        fc.property(resultOf(loose(type), optional), (value) => {
          expect(validator.check(value)).toBe(true);
          const text = serialize(value);
          expect(text).toBeTypeOf('string');
          const expected = value === null ? null : restrict(value, type);
          expect(JSON.parse(text!)).toEqual(JSON.parse(JSON.stringify(expected)));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('decline values that are not what the IDL says, and the server then sends JSON.stringify', async () => {
    let answer: unknown;
    const handlers = { Values: Object.fromEntries(methods().map(({ key }) => [key.split('.')[1], () => answer])) };
    const server = generated.createEverythingServer(handlers, { validateResponses: false, logger: { error: () => undefined } });
    const wrong = fc.oneof(fc.jsonValue(), fc.constantFrom(undefined, [1], { id: 1 }, 'x', 7, true, [[]]));
    for (const { key, type } of methods()) {
      const serialize = generated.serializers[key];
      // A valid value with one known field (or the whole value) replaced by anything JSON has.
      const mutated = fc.tuple(canonical(type), wrong, fc.nat()).map(([value, replacement, pick]) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return replacement;
        const keys = Object.keys(value);
        return keys.length === 0 ? replacement : { ...value, [keys[pick % keys.length]]: replacement };
      });
      await fc.assert(
        fc.asyncProperty(mutated, async (value) => {
          answer = value;
          const { body } = await server.handleHttp({
            method: 'POST',
            path: '/',
            contentType: 'application/json',
            body: `{"jsonrpc":"2.0","method":"${key}","id":1}`,
          });
          const response = JSON.parse(body);
          // A handler's undefined is sent as null (call-pipeline.ts).
          const sent = value === undefined ? null : value;
          const text = serialize(sent);
          if (text !== undefined) expect(response.result).toEqual(JSON.parse(text));
          else expect(response.result).toEqual(JSON.parse(JSON.stringify(sent)));
        }),
        { numRuns: 60 },
      );
    }
  });
});

describe('a server from a generated module', () => {
  const node = (label: string) => ({ label, kids: [], internal: 'secret', next: { label: `${label}'s next`, kids: [], hidden: true } });
  let server: RpcServer;
  let nodeResult: () => unknown;
  const logged: unknown[] = [];
  beforeAll(() => {
    const otherwise = () => null;
    nodeResult = () => [node('a'), node('b')];
    server = generated.createEverythingServer(
      {
        Values: {
          ...Object.fromEntries(methods().map(({ key }) => [key.split('.')[1], otherwise])),
          nodes: () => nodeResult(),
          yes: () => true,
        },
      },
      { logger: { error: (...args: unknown[]) => logged.push(args) } },
    );
  });
  const call = async (path: string, body: unknown) =>
    (await server.handleHttp({ method: 'POST', path, contentType: 'application/json', body: JSON.stringify(body) })).body;
  // In IDL order (label, next, kids), whatever order the handler wrote.
  const expectedNodes = [
    { label: 'a', next: { label: "a's next", kids: [] }, kids: [] },
    { label: 'b', next: { label: "b's next", kids: [] }, kids: [] },
  ];

  it('answers with extra keys dropped over JSON-RPC, one call and a batch', async () => {
    expect(await call('/', { jsonrpc: '2.0', method: 'Values.nodes', id: 1 })).toBe(
      `{"jsonrpc":"2.0","result":${JSON.stringify(expectedNodes)},"id":1}`,
    );
    const batch = await call('/', [
      { jsonrpc: '2.0', method: 'Values.nodes', id: 'a' },
      { jsonrpc: '2.0', method: 'Values.yes', id: 'b' },
      { jsonrpc: '2.0', method: 'Values.nodes' },
      { jsonrpc: '2.0', method: 'Values.nope', id: 'c' },
    ]);
    expect(JSON.parse(batch)).toEqual([
      { jsonrpc: '2.0', result: expectedNodes, id: 'a' },
      { jsonrpc: '2.0', result: true, id: 'b' },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found: Values.nope' }, id: 'c' },
    ]);
  });

  it('answers with extra keys dropped over REST', async () => {
    expect(await call('/Values/nodes', {})).toBe(JSON.stringify(expectedNodes));
  });

  it('answers -32603 when writing the result throws (a throwing getter, a cycle), in a batch the others still answer', async () => {
    const throwing = {
      kids: [],
      get label(): string {
        throw new Error('getter');
      },
    };
    const cyclic: { label: string; kids: unknown[] } = { label: 'loop', kids: [] };
    cyclic.kids.push(cyclic);
    for (const broken of [throwing, cyclic]) {
      nodeResult = () => [broken];
      logged.length = 0;
      const single = JSON.parse(await call('/', { jsonrpc: '2.0', method: 'Values.nodes', id: 7 }));
      expect(single).toEqual({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: 7 });
      expect(logged.length).toBeGreaterThan(0);
      const batch = JSON.parse(
        await call('/', [
          { jsonrpc: '2.0', method: 'Values.nodes', id: 1 },
          { jsonrpc: '2.0', method: 'Values.yes', id: 2 },
        ]),
      );
      expect(batch).toEqual([
        { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: 1 },
        { jsonrpc: '2.0', result: true, id: 2 },
      ]);
      expect(JSON.parse(await call('/Values/nodes', {}))).toEqual({ code: -32603, message: 'Internal error' });
    }
  });

  it('handleJson still gives the response objects as the handler returned them', async () => {
    nodeResult = () => [node('a')];
    expect(await server.handleJson({ jsonrpc: '2.0', method: 'Values.nodes', id: 1 })).toEqual({
      jsonrpc: '2.0',
      result: [node('a')],
      id: 1,
    });
  });
});
