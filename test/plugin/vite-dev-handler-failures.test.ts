/**
 * Whatever is wrong with the handlers, the Vite dev server stays up: handlers that no longer fit
 * the `.idl` (a method added to it, a handler method renamed), a handler module that does not load
 * (syntax error, throw at import), that exports no handler under an interface's name, or a handler
 * that throws or rejects. Each answers with what is wrong (in the terminal and the overlay too),
 * and once it is fixed, calls are served again without a restart. The server runs in a process
 * of its own (test/plugin/harness/dev-server-process.ts), so a failure that would end `vite` ends
 * it, and the test sees that.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { type DevServerProcess, startDevServerProcess } from './harness/dev-server-process.js';
import { callRpc, eventually, type JsonRpcAnswer } from './harness/http.js';
import { freshDir } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const IDL = `namespace library

struct Book {
    title  string
}

interface LibraryService {
    listBooks() []Book
    findBook(title string) Book [optional]
}
`;

const HANDLERS = `export const LibraryService = {
  listBooks() {
    return [{ title: 'Dune' }];
  },
  findBook(title: string) {
    if (title === 'throw') throw new Error('findBook threw');
    if (title === 'reject') return Promise.reject(new Error('findBook rejected'));
    return null;
  },
};
`;

const ANSI_ESCAPE = '\u001b';

let project: string;
let dev: DevServerProcess;

const idlFile = () => path.join(project, 'library.idl');
const handlersFile = () => path.join(project, 'server/handlers.ts');
const call = (method: string, params: unknown[] = []) => callRpc(`${dev.base}/rpc`, method, params);
/** Calls until the answer passes `accept` (edits reach the server through Vite's watcher). */
const callUntil = (method: string, accept: (answer: JsonRpcAnswer) => boolean, params: unknown[] = []) =>
  eventually(() => call(method, params), accept);
const failsWith = (code: number) => (answer: JsonRpcAnswer) => answer.error?.code === code;

beforeAll(async () => {
  project = await freshDir('vite-dev-handler-failures');
  await mkdir(path.join(project, 'server'));
  await writeFile(idlFile(), IDL);
  // Misnamed from the start: the first test is about what start-up says of it.
  await writeFile(handlersFile(), HANDLERS.replace('export const LibraryService', 'export const LibrarySvc'));
  dev = await startDevServerProcess(project, { server: { idl: 'library.idl', handlers: 'server/handlers.ts' } });
});

afterAll(async () => {
  await dev?.stop();
});

afterEach(async () => {
  // Whatever the test broke, the process runs, and serves again once the files are as they were.
  expect(dev.ended(), dev.terminal()).toBeUndefined();
  await writeFile(idlFile(), IDL);
  await writeFile(handlersFile(), HANDLERS);
  const served = await callUntil('LibraryService.listBooks', (answer) => answer.result !== undefined);
  expect(served.result, dev.terminal()).toEqual([{ title: 'Dune' }]);
  expect(dev.ended()).toBeUndefined();
});

describe('vite dev server: the process outlives every failure of the handlers', () => {
  test('a handler module that exports no object named after an interface: a warning at start-up naming its exports; calls get -32601', async () => {
    const warning =
      'server/handlers.ts exports no object named after an interface of the IDL (LibraryService), so every call answers "method not found"; it exports LibrarySvc';
    // No call made: the warning comes when the server starts.
    expect(
      await eventually(
        async () => dev.terminal(),
        (text) => text.includes(warning),
      ),
    ).toContain(warning);
    const answer = await call('LibraryService.listBooks');
    expect(answer.error).toMatchObject({ code: -32601 });
  });

  test('a module with no export at all is warned about too', async () => {
    await writeFile(handlersFile(), 'export {};\n');
    await callUntil('LibraryService.listBooks', failsWith(-32601));
    expect(dev.terminal()).toContain('server/handlers.ts exports no object named after an interface of the IDL (LibraryService)');
    expect(dev.terminal()).toContain('it exports nothing');
  });

  test('a method added to the .idl before its handler: -32603 naming the missing method, in the terminal and the overlay', async () => {
    await writeFile(idlFile(), IDL.replace('listBooks() []Book', 'listBooks() []Book\n    countBooks() int'));
    // Until the edit is loaded, a call may still be answered by the old server, or meet the module
    // while it loads: wait for the answer about the new method.
    const answer = await callUntil(
      'LibraryService.listBooks',
      (reply) => failsWith(-32603)(reply) && /countBooks/.test(reply.error?.message ?? ''),
    );
    expect(answer.error?.message).toBe('Internal error: createRpcServer: the handler of LibraryService has no method countBooks');
    expect(dev.terminal()).toContain(
      '[unplugin-idl-rpc] the RPC server cannot start with the handlers of server/handlers.ts: createRpcServer: the handler of LibraryService has no method countBooks',
    );
    expect(dev.overlays().at(-1)?.message).toBe(
      'the RPC server cannot start with the handlers of server/handlers.ts: createRpcServer: the handler of LibraryService has no method countBooks',
    );
    // The handler written: served, no restart.
    await writeFile(handlersFile(), HANDLERS.replace('  listBooks() {', '  countBooks() {\n    return 1;\n  },\n  listBooks() {'));
    const counted = await callUntil('LibraryService.countBooks', (a) => a.result !== undefined);
    expect(counted.result).toBe(1);
  });

  test('a handler method renamed: -32603 naming the method it lacks', async () => {
    await writeFile(handlersFile(), HANDLERS.replace('  listBooks() {', '  listAllBooks() {'));
    const answer = await callUntil('LibraryService.findBook', failsWith(-32603), ['Dune']);
    expect(answer.error?.message).toBe('Internal error: createRpcServer: the handler of LibraryService has no method listBooks');
  });

  test('a syntax error in the handler module: -32603 with the error and its location, without terminal colour codes', async () => {
    await writeFile(handlersFile(), `${HANDLERS}\nconst = ;\n`);
    const answer = await callUntil('LibraryService.listBooks', failsWith(-32603));
    expect(answer.error?.message).toContain('server/handlers.ts:12');
    expect(answer.error?.message).toContain('[PARSE_ERROR]');
    expect(answer.error?.message).not.toContain(ANSI_ESCAPE);
    const overlay = dev.overlays().at(-1);
    expect(overlay?.message).toContain('[PARSE_ERROR]');
    expect(JSON.stringify(overlay)).not.toContain('\\u001b');
  });

  test('a handler module that throws when imported: -32603 with its message, in the terminal and the overlay', async () => {
    await writeFile(handlersFile(), `${HANDLERS}\nthrow new Error('no database at import');\n`);
    const answer = await callUntil('LibraryService.listBooks', failsWith(-32603));
    expect(answer.error?.message).toBe('Internal error: no database at import');
    expect(dev.terminal()).toContain('[unplugin-idl-rpc] no database at import');
    expect(dev.overlays().at(-1)?.message).toBe('no database at import');
  });

  test('a handler that throws or rejects: -32603 with its message in data (exposeErrors), the next call served', async () => {
    await callUntil('LibraryService.listBooks', (a) => a.result !== undefined);
    for (const how of ['throw', 'reject']) {
      const answer = await call('LibraryService.findBook', [how]);
      expect(answer.error).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(answer.error?.data).toMatchObject({ message: how === 'throw' ? 'findBook threw' : 'findBook rejected' });
      expect((await call('LibraryService.findBook', ['Dune'])).result).toBeNull();
    }
  });
});
