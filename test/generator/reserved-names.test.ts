/**
 * Every valid IDL name generates valid code. JavaScript's reserved words, TypeScript's keywords,
 * every global of this Node process and the names generated code itself uses, as the names of
 * structs, enums, interfaces, errors, methods, fields and parameters (and namespaces): the output
 * directory and the plugin module's `.d.ts` type-check with `tsc --strict`, and the plugin module,
 * imported by node, serves every method to its client and to plain JSON-RPC calls under the IDL
 * names (wire names never change).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { typeScriptNames } from '../../src/codegen/names.js';
import { compileIdl, IDENTIFIER_PATTERN, RESERVED_WORDS } from '../../src/idl/index.js';
import { compileIdlSource } from '../../src/codegen/idl-module.js';
import { ensureBuilt } from '../cli/run-cli.js';
import { freshDir, idlrpc, runNode, typeCheck } from './helpers.js';

const JAVASCRIPT_RESERVED =
  'await break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if implements import in instanceof interface let new null package private protected public return static ' +
  'super switch this throw true try typeof var void while with yield arguments eval';
const TYPESCRIPT_KEYWORDS =
  'abstract accessor any as asserts assert async bigint boolean constructor declare from get global infer intrinsic is ' +
  'keyof module namespace never number object of out override readonly require satisfies set string symbol type ' +
  'undefined unique unknown using';
/** TypeScript's built-in types (no globals at run time). */
const TYPESCRIPT_TYPES =
  'Record Omit Partial Pick Readonly Required Exclude Extract NonNullable ReturnType Parameters InstanceType Awaited ' +
  'PromiseLike ArrayLike PropertyKey ReadonlyArray Uppercase Lowercase Capitalize Uncapitalize NoInfer ThisType';
/** Names the generated code declares or imports, and TypeBox's names for compiled checks. */
const GENERATED =
  'validators methodSchemas schemaReferences namedChecks keyPattern callMethod callMethodWithoutRaises options ctx transport handlers Type ' +
  'TSchema DeclaredError Transport CallOptions typeboxValidator ValidatorTable RpcContext RpcServer RpcServerOptions ' +
  'createRpcServer IdlJson RpcError HttpTransport T0 T1 check_T0 check_class classSchema classClient classError CLASS ' +
  'createPromiseServer PromiseHandlers promiseIdl PromiseServerOptions a___ a_95_ check_a_95_95_95_ generatedValidator ' +
  'MAX_ISSUES recordProblem recordProblemAt isObjectValue integerProblem markOrNull deferToExplainer inheritedProblems ' +
  'ProblemPath ValidationIssue ExtendedStruct problems_class extended_class';

/** Every name to try: valid IDL identifiers only (the IDL's own keywords cannot be names). */
const NAMES = [
  ...new Set([
    ...JAVASCRIPT_RESERVED.split(' '),
    ...TYPESCRIPT_KEYWORDS.split(' '),
    ...TYPESCRIPT_TYPES.split(' '),
    ...Object.getOwnPropertyNames(globalThis),
    ...GENERATED.split(' '),
  ]),
]
  .filter((name) => IDENTIFIER_PATTERN.test(name) && !RESERVED_WORDS.has(name))
  .sort();

/**
 * An optional field named like an `Object.prototype` member is not among the optional fields below:
 * TypeBox's compiled checks read such a field through the prototype when it is absent (a known
 * runtime limitation, reported separately).
 */
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** What the wire test (run by node) calls: a method, its argument, and what must come back. */
interface Call {
  /** The module's export of the client class and the client method (TypeScript names). */
  client: string;
  clientMethod: string;
  /** The JSON-RPC method (wire name). */
  method: string;
  params: unknown[];
  /** The result, or the export of the declared error class that must be thrown. */
  result?: unknown;
  error?: { class: string; code: number; name: string };
}

interface Plan {
  createServer: string;
  /** Handler methods, by wire names: what each returns (the first argument) or raises. */
  handlers: Record<string, Record<string, { raiseOn?: unknown; raise?: string; returnAll?: boolean }>>;
  calls: Call[];
}

/** The wire test: serves the plugin module over HTTP and checks every call, through the client and raw. */
const MAIN = `
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpTransport, listen } from 'unplugin-idl-rpc/runtime';
import * as api from './plugin.js';

const plan = JSON.parse(readFileSync(new URL('./plan.json', import.meta.url), 'utf8'));
const handlers = {};
for (const [iface, methods] of Object.entries(plan.handlers)) {
  handlers[iface] = {};
  for (const [name, how] of Object.entries(methods)) {
    handlers[iface][name] = (...args) => {
      args.pop(); // the call's context
      if (how.raise && JSON.stringify(args[0]) === JSON.stringify(how.raiseOn)) throw new api[how.raise]();
      return how.returnAll ? args : args[0];
    };
  }
}
const server = api[plan.createServer](handlers);
const http = await listen(server, { port: 0, host: '127.0.0.1' });
const url = 'http://127.0.0.1:' + http.address().port;
const transport = new HttpTransport(url);
let checked = 0;
try {
  for (const call of plan.calls) {
    const client = new api[call.client](transport);
    const raw = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params }) })).json();
    if (call.error) {
      await assert.rejects(client[call.clientMethod](...call.params), (error) => {
        assert.ok(error instanceof api[call.error.class], call.method + ': ' + error);
        assert.equal(error.code, call.error.code);
        assert.equal(error.name, call.error.name);
        return true;
      });
      assert.equal(raw.error?.code, call.error.code, call.method);
    } else {
      assert.deepEqual(await client[call.clientMethod](...call.params), call.result, call.method);
      assert.deepEqual(raw.result, call.result, call.method + ' ' + JSON.stringify(raw.error));
    }
    checked++;
  }
} finally {
  http.close();
}
console.log('WIRE OK ' + checked);
`;

/** Generates `idl` both ways, type-checks the directory with the plugin's `.d.ts`, and runs the wire plan. */
async function generateCheckAndRun(name: string, idl: string, plan: (names: ReturnType<typeof typeScriptNames>) => Plan): Promise<void> {
  const dir = freshDir(`reserved-names-${name}`);
  const idlFile = path.join(dir, `${name}.idl`);
  writeFileSync(idlFile, idl);
  const out = path.join(dir, 'out');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', out, '-ts-gen-tsconfig', idlFile]);
  expect(generated.stderr).toBe('');
  expect(generated.code).toBe(0);

  const { js, dts, model } = compileIdlSource(idl, idlFile);
  writeFileSync(path.join(out, 'plugin.js'), js);
  writeFileSync(path.join(out, 'plugin.d.ts'), dts);
  const checked = typeCheck(out, false);
  expect(checked.output).toBe('');
  expect(checked.status).toBe(0);

  const thePlan = plan(typeScriptNames(model));
  writeFileSync(path.join(out, 'plan.json'), JSON.stringify(thePlan));
  writeFileSync(path.join(out, 'main.mjs'), MAIN);
  const run = runNode(path.join(out, 'main.mjs'));
  expect(run.output).toContain(`WIRE OK ${thePlan.calls.length}`);
  expect(run.status).toBe(0);
}

const lines = (items: string[]) => items.map((item) => `    ${item}\n`).join('');

test(`${NAMES.length} names as structs, errors, methods, fields and parameters`, async () => {
  ensureBuilt();
  const optionalFields = NAMES.filter((name) => !PROTOTYPE_MEMBERS.has(name));
  const idl = [
    'namespace Promise\n',
    ...NAMES.map((name) => `struct ${name} {\n    ${name} string\n}\n`),
    `struct Fields {\n${lines(NAMES.map((name) => `${name} string`))}}\n`,
    `struct OptionalFields {\n${lines(optionalFields.map((name) => `${name} string [optional]`))}}\n`,
    `struct Child extends Fields {\n    own string\n}\n`,
    `errors {\n${lines(NAMES.map((name, i) => `${1000 + i} ${name} "${name} failed"`))}}\n`,
    'interface Api {',
    ...NAMES.map((name) => `    ${name}(${name} ${name}) ${name} raises(${name})\n`),
    '    fields(all Fields) Fields\n',
    '    optionalFields(some OptionalFields) OptionalFields\n',
    '    child(child Child) Child\n',
    `    params(${NAMES.map((name) => `${name} string`).join(', ')}) []string`,
    '}\n',
  ].join('\n');
  const all = Object.fromEntries(NAMES.map((name) => [name, `${name}!`]));
  await generateCheckAndRun('structs', idl, (names) => {
    const client = names.client('Api');
    const method = (wire: string, clientMethod: string, params: unknown[], result: unknown): Call => ({
      client,
      clientMethod,
      method: `Api.${wire}`,
      params,
      result,
    });
    const clientMethod = (wire: string) => (wire === 'constructor' ? 'constructor_' : wire);
    return {
      createServer: names.server.create,
      handlers: {
        Api: {
          ...Object.fromEntries(NAMES.map((name) => [name, { raiseOn: { [name]: 'raise' }, raise: names.errorClass(name) }])),
          fields: {},
          optionalFields: {},
          child: {},
          params: { returnAll: true },
        },
      },
      calls: [
        ...NAMES.flatMap((name): Call[] => [
          method(name, clientMethod(name), [{ [name]: 'x' }], { [name]: 'x' }),
          {
            client,
            clientMethod: clientMethod(name),
            method: `Api.${name}`,
            params: [{ [name]: 'raise' }],
            error: { class: names.errorClass(name), code: 1000 + NAMES.indexOf(name), name: `${name}Error` },
          },
        ]),
        method('fields', 'fields', [all], all),
        method('optionalFields', 'optionalFields', [{}], {}),
        method(
          'optionalFields',
          'optionalFields',
          [Object.fromEntries(optionalFields.map((name) => [name, null]))],
          Object.fromEntries(optionalFields.map((name) => [name, null])),
        ),
        method('child', 'child', [{ ...all, own: 'o' }], { ...all, own: 'o' }),
        method('params', 'params', NAMES, NAMES),
      ],
    };
  });
}, 180_000);

test(`${NAMES.length} names as enums and enum values`, async () => {
  ensureBuilt();
  const idl = [
    'namespace class\n',
    ...NAMES.map((name) => `enum ${name} {\n    ${name}\n    other\n}\n`),
    'interface Api {',
    ...NAMES.map((name) => `    ${name}(${name} ${name}) ${name}\n`),
    '}\n',
  ].join('\n');
  await generateCheckAndRun('enums', idl, (names) => ({
    createServer: names.server.create,
    handlers: { Api: Object.fromEntries(NAMES.map((name) => [name, {}])) },
    calls: NAMES.flatMap((name): Call[] => [
      {
        client: names.client('Api'),
        clientMethod: name === 'constructor' ? 'constructor_' : name,
        method: `Api.${name}`,
        params: [name],
        result: name,
      },
      {
        client: names.client('Api'),
        clientMethod: name === 'constructor' ? 'constructor_' : name,
        method: `Api.${name}`,
        params: ['other'],
        result: 'other',
      },
    ]),
  }));
}, 180_000);

test(`${NAMES.length} names as interfaces`, async () => {
  ensureBuilt();
  const idl = ['namespace default\n', ...NAMES.map((name) => `interface ${name} {\n    ${name}(${name} string) string\n}\n`)].join('\n');
  await generateCheckAndRun('interfaces', idl, (names) => ({
    createServer: names.server.create,
    handlers: Object.fromEntries(NAMES.map((name) => [name, { [name]: {} }])),
    calls: NAMES.map(
      (name): Call => ({
        client: names.client(name),
        clientMethod: name === 'constructor' ? 'constructor_' : name,
        method: `${name}.${name}`,
        params: [`${name}?`],
        result: `${name}?`,
      }),
    ),
  }));
}, 180_000);

test('the names tried cover reserved words, keywords, globals and generated names', () => {
  for (const name of [
    'class',
    'new',
    'function',
    'delete',
    'default',
    'any',
    'constructor',
    'Record',
    'Date',
    'Promise',
    'Error',
    'Array',
    'Map',
    'Object',
    'validators',
    'callMethod',
  ]) {
    expect(NAMES).toContain(name);
  }
  expect(compileIdl(`namespace n\n\nstruct ${NAMES.join(' {\n}\n\nstruct ')} {\n}\n`, 'all.idl').structs).toHaveLength(NAMES.length);
});

test('idlrpc -openapi-to-idl on paths and schemas named like reserved words and globals gives IDL that generates and type-checks', async () => {
  const dir = freshDir('reserved-names-openapi');
  const ok = { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } } };
  const document = {
    openapi: '3.1.0',
    info: { title: 'class', version: '1' },
    paths: {
      '/class': { get: { parameters: [{ name: 'new', in: 'query', required: true, schema: { type: 'string' } }], responses: { 200: ok } } },
      '/function/{delete}': {
        post: {
          parameters: [{ name: 'delete', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Promise' } } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Date' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Record: { type: 'object', properties: { class: { type: 'string' }, default: { type: 'integer' } }, required: ['class'] },
        Promise: { type: 'object', properties: { then: { type: 'string' } } },
        Date: { type: 'string', enum: ['new', 'class'] },
        Error: { type: 'object', properties: { message: { type: 'string' } } },
      },
    },
  };
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(document));
  const converted = await idlrpc(['-openapi-to-idl', path.join(dir, 'api.json'), '-output-dir', dir]);
  expect(converted.code).toBe(0);
  const idl = readFileSync(path.join(dir, 'api.idl'), 'utf8');
  // The IDL keeps the names of the document: they are wire names.
  expect(idl).toMatch(/^interface class \{$/m);
  expect(idl).toMatch(/^struct Record \{$/m);
  expect(idl).toMatch(/^enum Date \{$/m);

  const out = path.join(dir, 'out');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', out, '-ts-gen-tsconfig', path.join(dir, 'api.idl')]);
  expect(generated.stderr).toBe('');
  expect(generated.code).toBe(0);
  const checked = typeCheck(out, false);
  expect(checked.output).toBe('');
  expect(checked.status).toBe(0);
  expect(readFileSync(path.join(out, 'types.ts'), 'utf8')).toContain('export interface Record_ {');
}, 120_000);
