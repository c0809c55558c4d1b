/**
 * Hostile IDLs against mock mode (runtime/mock/), each case in its own child process with a small
 * heap (harness.ts): constraints that ask for more than any answer should hold get a clear -32603,
 * never an out-of-memory end of the server or a hang.
 */
import { beforeAll, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

/** An IDL JSON of one method `Thing.get` returning `returnType` under `returnConstraints`. */
const idlReturning = (returnType: unknown, returnConstraints: unknown, structs: unknown[] = []) =>
  JSON.stringify({
    rootNamespace: 'h',
    checksum: 'h',
    interfaces: [{ name: 'Thing', namespace: 'h', methods: [{ name: 'get', returnType, returnConstraints }] }],
    structs,
  });

it.each([
  ['a string of a billion characters', idlReturning({ builtIn: 'string' }, { minLength: 1e9 }), 'needs at least 1000000000 characters'],
  [
    'a pattern that repeats a million times over',
    idlReturning({ builtIn: 'string' }, { pattern: '^((a{1000}){1000}){1000}$' }),
    'meets the pattern',
  ],
  [
    'nested arrays of a million items each',
    idlReturning({ array: { userDefined: 'Row' } }, { minItems: 1_000_000 }, [
      {
        name: 'Row',
        namespace: 'h',
        fields: [{ name: 'cells', type: { array: { builtIn: 'int' } }, constraints: { minItems: 1_000_000 } }],
      },
    ]),
    'more than 100000 values',
  ],
])('%s: a clear error, the process lives on', async (_name, idl, message) => {
  const run = await runHostileScript(`
    const { createRpcServer } = await import(DIST + 'runtime/index.js');
    const { createMockHandlers } = await import(DIST + 'runtime/mock/index.js');
    const idl = ${idl};
    const server = createRpcServer({ idl, handlers: createMockHandlers(idl) });
    const answer = await server.handleJson({ jsonrpc: '2.0', id: 1, method: 'Thing.get' }, { headers: {} });
    console.log(JSON.stringify(answer));`);
  expect(run.hung, 'hung').toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const answer = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  expect(answer.error.code).toBe(-32603);
  expect(answer.error.message).toContain('mock cannot make a valid result of Thing.get');
  expect(answer.error.message).toContain(message);
});
