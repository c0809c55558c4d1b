/**
 * The server does what its openapi.json says, checked by properties rather than chosen examples: for
 * every operation of the checkout contract, of the all-constructs fixture and of the three-file
 * fixture (a root importing two namespaces), in OpenAPI 3.0 and 3.1, request bodies generated from
 * the operation's schema are accepted (the handler runs with them), mutations the document forbids
 * (Ajv is the judge) are answered 400 without reaching the handler, and every answer (result,
 * declared error, business-rule error, handler failure, 400) matches the document's response for
 * its status.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../runtime/errors.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi, type OpenApiVersion } from '../../src/openapi/index.js';
import { post, startServer, type TestServer } from '../runtime/helpers.js';
import { mutatedValue, type Schema, validValue } from './schema-arbitrary.js';

const root = join(import.meta.dirname, '..', '..');
const contracts = [
  { name: 'checkout', file: join(root, 'playground', 'checkout.idl') },
  { name: 'everything', file: join(root, 'test', 'generator', 'fixtures', 'everything.idl') },
  // Imports common.idl and inventory.idl: qualified types, an imported interface, imported errors.
  { name: 'multi-file', file: join(root, 'test', 'idl', 'fixtures', 'multi-file', 'shop.idl') },
];
const versions: OpenApiVersion[] = ['3.0', '3.1'];
const RUNS = 50;

/** What the next handler call does: the property chooses it before each request. */
type Plan = { kind: 'result'; value: unknown } | { kind: 'declared'; code: number } | { kind: 'business' } | { kind: 'crash' };

interface Operation {
  path: string;
  interfaceName: string;
  methodName: string;
  requestSchema: Schema;
  resultSchema: Schema;
  declaredCodes: number[];
}

function operationsOf(idl: IdlJson, document: Schema): Operation[] {
  // `raises` names an error as the IDL does: plainly for the root's errors, qualified for imported ones.
  const raisedName = (error: { name: string; namespace: string }) =>
    error.namespace === idl.rootNamespace ? error.name.slice(idl.rootNamespace.length + 1) : error.name;
  const errorCodes = new Map((idl.errors ?? []).map((error) => [raisedName(error), error.code]));
  return (idl.interfaces ?? []).flatMap((iface) =>
    // A stream method answers text/event-stream, not one JSON body: test/openapi/streams.test.ts checks its operation.
    (iface.methods ?? [])
      .filter((method) => method.stream !== true)
      .map((method) => {
        const path = `/${iface.name}/${method.name}`;
        const operation = document.paths[path].post;
        return {
          path,
          interfaceName: iface.name,
          methodName: method.name,
          requestSchema: operation.requestBody.content['application/json'].schema,
          resultSchema: operation.responses['200'].content['application/json'].schema,
          declaredCodes: (method.raises ?? []).map((name) => errorCodes.get(name)!),
        };
      }),
  );
}

/** Ajv for the document's version, with a validator per JSON pointer into the document. */
function documentValidator(document: Schema, version: OpenApiVersion) {
  const options = { strict: false, validateFormats: false, allErrors: false };
  const ajv = version === '3.1' ? new Ajv2020.default(options) : new Ajv.default(options);
  ajv.addSchema(document, 'document');
  const compiled = new Map<string, ValidateFunction>();
  return (pointer: string, value: unknown): string | undefined => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `document#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const requestPointer = (path: string) => `/paths/${pointerSegment(path)}/post/requestBody/content/application~1json/schema`;
const responsePointer = (path: string, status: number) =>
  `/paths/${pointerSegment(path)}/post/responses/${status}/content/application~1json/schema`;

describe.each(contracts)('openapi.json of $name against the real server', ({ file }) => {
  const idl = toIdlJson(compileIdl(readFileSync(file, 'utf8'), file));
  let plan: Plan = { kind: 'crash' };
  let calls: unknown[][] = [];
  let server: TestServer;

  /** One handler for every method: it records its arguments and does what the plan says. */
  const handler = (...args: unknown[]) => {
    calls.push(args.slice(0, -1));
    if (plan.kind === 'result') return plan.value;
    if (plan.kind === 'declared') throw new RpcError(plan.code, 'declared');
    if (plan.kind === 'business') throw new RpcError(ErrorCode.InvalidParams, 'a business rule failed');
    throw new Error('the handler failed');
  };
  const handlers = Object.fromEntries(
    (idl.interfaces ?? []).map((iface) => [iface.name, Object.fromEntries((iface.methods ?? []).map((method) => [method.name, handler]))]),
  );

  beforeAll(async () => {
    server = await startServer({ idl, handlers });
  });
  afterAll(() => server?.close());

  describe.each(versions)('OpenAPI %s', (version) => {
    const document = idlToOpenApi([compileIdl(readFileSync(file, 'utf8'), file)], { version }).document as Schema;
    const violation = documentValidator(document, version);

    async function callAndCheck(path: string, body: unknown) {
      calls = [];
      const response = await post(`${server.url}${path}`, JSON.stringify(body));
      expect(response.headers.get('content-type'), response.text).toMatch(/^application\/json/);
      const problem = violation(responsePointer(path, response.status), response.json);
      expect(problem, `${path} ${JSON.stringify(body)} answered ${response.status} ${response.text}`).toBeUndefined();
      return response;
    }

    it.each(operationsOf(idl, document).map((operation) => [operation.path, operation] as const))(
      '%s accepts what the document allows and answers as it says',
      async (_path, operation) => {
        const outcomes: fc.Arbitrary<Plan>[] = [
          validValue(document, operation.resultSchema).map((value) => ({ kind: 'result' as const, value })),
          fc.constant({ kind: 'business' as const }),
          fc.constant({ kind: 'crash' as const }),
        ];
        if (operation.declaredCodes.length > 0) {
          outcomes.push(fc.constantFrom(...operation.declaredCodes).map((code) => ({ kind: 'declared' as const, code })));
        }
        const expectedStatus = { result: 200, declared: 422, business: 400, crash: 500 };
        await fc.assert(
          fc.asyncProperty(validValue(document, operation.requestSchema), fc.oneof(...outcomes), async (body, outcome) => {
            expect(violation(requestPointer(operation.path), body)).toBeUndefined();
            plan = outcome;
            const response = await callAndCheck(operation.path, body);
            expect(calls, `${JSON.stringify(body)}: ${response.text}`).toHaveLength(1);
            expect(response.status).toBe(expectedStatus[outcome.kind]);
          }),
          { numRuns: RUNS },
        );
      },
    );

    it.each(operationsOf(idl, document).map((operation) => [operation.path, operation] as const))(
      '%s answers 400 to a body the document forbids',
      async (_path, operation) => {
        const forbidden = validValue(document, operation.requestSchema)
          .chain(mutatedValue)
          .filter((body) => violation(requestPointer(operation.path), body) !== undefined);
        plan = { kind: 'crash' };
        await fc.assert(
          fc.asyncProperty(forbidden, async (body) => {
            const response = await callAndCheck(operation.path, body);
            expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(400);
            expect(calls).toHaveLength(0);
          }),
          { numRuns: RUNS },
        );
      },
    );
  });
});
