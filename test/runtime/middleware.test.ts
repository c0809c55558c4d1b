/**
 * Middleware around calls (docs/runtime.md, "Middleware"): the order of server, interface and method
 * middleware; rejection as a JSON-RPC error and as a REST status (`httpStatus`); typed context values
 * (checked by tsc through expectTypeOf and @ts-expect-error); each batch member through it; the
 * `onCall` hook; start-up errors for options that name nothing.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ContextOf,
  createRpcServer,
  defineMiddleware,
  ErrorCode,
  type NoValues,
  type RpcContext,
  RpcError,
  type RpcMiddleware,
  type RpcServerOptions,
} from '../../runtime/index.js';
import { toIdlJson } from '../../src/idl/json.js';
import { compileIdl } from '../../src/idl/index.js';
import { readFileSync } from 'node:fs';
import { importNotesModule, notesHandlers, notesIdlFile, type NotesModule, productionOptions, type User } from './notes-service.js';

let module: NotesModule;
beforeAll(async () => {
  module = await importNotesModule();
});

const idl = toIdlJson(compileIdl(readFileSync(notesIdlFile, 'utf8'), 'notes.idl'));
const quiet = { error: () => undefined };

/** POSTs a JSON-RPC message (or REST body to `path`) to a server's handleHttp; gives status and parsed body. */
async function post(server: ReturnType<typeof createRpcServer>, message: unknown, path = '/', headers: Record<string, string> = {}) {
  const answer = await server.handleHttp({
    method: 'POST',
    path,
    body: JSON.stringify(message),
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: answer.status, headers: answer.headers, json: answer.body === '' ? undefined : JSON.parse(answer.body) };
}

const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', method, params, id });
const notification = (method: string, params: unknown[]) => ({ jsonrpc: '2.0', method, params });

describe('order', () => {
  it('runs server, interface, then method middleware, outermost first, around the handler, and sees its outcome', async () => {
    const trace: string[] = [];
    const tracer =
      (name: string): RpcMiddleware =>
      async (rpc, next) => {
        trace.push(`${name} before ${rpc.method}(${JSON.stringify(rpc.params)})`);
        try {
          const result = await next();
          trace.push(`${name} after ${JSON.stringify(result)}`);
          return result;
        } catch (error) {
          trace.push(`${name} saw ${(error as Error).message}`);
          throw error;
        }
      };
    const server = createRpcServer({
      idl,
      handlers: {
        NoteService: { ...notesHandlers(module).NoteService, addNote: (text: string) => ({ id: 'n1', text, author: 'x' }) },
        AdminService: { wipe: () => 3 },
      },
      logger: quiet,
      middleware: [tracer('server 1'), tracer('server 2')],
      middlewareFor: { NoteService: [tracer('interface')], 'NoteService.addNote': [tracer('method')] },
    });
    await post(server, call('NoteService.addNote', ['hi']));
    expect(trace).toEqual([
      'server 1 before NoteService.addNote(["hi"])',
      'server 2 before NoteService.addNote(["hi"])',
      'interface before NoteService.addNote(["hi"])',
      'method before NoteService.addNote(["hi"])',
      'method after {"id":"n1","text":"hi","author":"x"}',
      'interface after {"id":"n1","text":"hi","author":"x"}',
      'server 2 after {"id":"n1","text":"hi","author":"x"}',
      'server 1 after {"id":"n1","text":"hi","author":"x"}',
    ]);
    trace.length = 0;
    await post(server, call('AdminService.wipe', []));
    expect(trace).toEqual([
      'server 1 before AdminService.wipe([])',
      'server 2 before AdminService.wipe([])',
      'server 2 after 3',
      'server 1 after 3',
    ]);
    trace.length = 0;
    expect((await post(server, call('NoteService.getNote', ['none']))).json.error.code).toBe(4004);
    expect(trace.at(-1)).toBe('server 1 saw NoteNotFound: none');
  });

  it('runs after params validation: refused params never reach middleware', async () => {
    let ran = 0;
    const server = createRpcServer({ idl, handlers: notesHandlers(module), logger: quiet, middleware: [(_rpc, next) => (ran++, next())] });
    expect((await post(server, call('NoteService.slow', ['not a number']))).json.error.code).toBe(-32602);
    expect(ran).toBe(0);
  });
});

describe('rejection', () => {
  it('a declared error thrown by middleware is the JSON-RPC error; the handler never runs', async () => {
    let handled = 0;
    const handlers = notesHandlers(module);
    const server = createRpcServer({
      idl,
      handlers: { ...handlers, AdminService: { wipe: () => ++handled } },
      ...productionOptions(module),
    });
    expect(await post(server, call('AdminService.wipe', []))).toMatchObject({
      status: 200,
      json: { jsonrpc: '2.0', id: 1, error: { code: 4001, message: 'Unauthorized: sign in first' } },
    });
    expect(await post(server, call('AdminService.wipe', []), '/', { authorization: 'Bearer ada' })).toMatchObject({
      json: { error: { code: 4003, message: 'Forbidden: ada is no admin' } },
    });
    expect(handled).toBe(0);
    expect((await post(server, call('AdminService.wipe', []), '/', { authorization: 'Bearer root' })).json).toMatchObject({ result: 1 });
  });

  it('the REST binding answers declared errors with their httpStatus, others with 422, and an RpcError of a reserved code by its code', async () => {
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      logger: quiet,
      httpStatus: { Unauthorized: 401, 'notes.Forbidden': 403 },
      middleware: [
        (rpc, next) => {
          const kind = rpc.ctx.headers['x-kind'];
          if (kind === 'unauthorized') throw new module.UnauthorizedError();
          if (kind === 'forbidden') throw new module.ForbiddenError();
          if (kind === 'invalid') throw new RpcError(-32602, 'Invalid params: params.text: too rude');
          if (kind === 'rate') throw new RpcError(ErrorCode.TooManyRequests, 'Too many notes: try again in 60 s');
          return next({ user: { name: 'ada', admin: false } });
        },
      ],
    });
    const rest = (kind: string) => post(server, { text: 'x' }, '/NoteService/addNote', { 'x-kind': kind });
    expect(await rest('unauthorized')).toMatchObject({ status: 401, json: { code: 4001, message: 'Unauthorized: sign in first' } });
    expect(await rest('forbidden')).toMatchObject({ status: 403, json: { code: 4003 } });
    expect(await rest('invalid')).toMatchObject({ status: 400, json: { code: -32602 } });
    expect(await rest('rate')).toMatchObject({ status: 429, json: { code: -32029 } });
    expect(await rest('none')).toMatchObject({ status: 200, json: { author: 'ada' } });
    expect(await post(server, { id: 'missing' }, '/NoteService/getNote', { 'x-kind': 'none' })).toMatchObject({
      status: 422,
      json: { code: 4004 },
    });
  });

  it('an unexpected throw is -32603, logged; a second next() is refused', async () => {
    const logged: unknown[] = [];
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      logger: { error: (message) => void logged.push(message) },
      middleware: [
        async (rpc, next) => {
          if (rpc.method === 'AdminService.wipe') throw new Error('boom');
          await next({ user: { name: 'a', admin: false } });
          return next();
        },
      ],
    });
    expect((await post(server, call('AdminService.wipe', []))).json.error).toEqual({ code: -32603, message: 'Internal error' });
    expect((await post(server, call('NoteService.addNote', ['x']))).json.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(logged).toEqual(['AdminService.wipe failed', 'NoteService.addNote failed']);
  });

  it('next() refuses to replace the context’s own members', async () => {
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      logger: quiet,
      exposeErrors: true,
      middleware: [(_rpc, next) => next({ headers: {} })],
    });
    expect((await post(server, call('AdminService.wipe', []))).json.error.data.message).toBe(
      'middleware of AdminService.wipe passed next({ headers }): ctx.headers is the server’s own'.replace('’', "'"),
    );
  });
});

describe('batches', () => {
  it('each member passes through the middleware on its own, and is rejected or answered on its own', async () => {
    const seen: string[] = [];
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      ...productionOptions(module),
      middleware: [
        (rpc, next) => {
          seen.push(`${rpc.method} ${rpc.ctx.id}`);
          return next();
        },
        ...productionOptions(module).middleware!,
      ],
    });
    const { json } = await post(
      server,
      [
        call('NoteService.addNote', ['a'], 1),
        call('AdminService.wipe', [], 2),
        notification('NoteService.addNote', ['b']),
        call('NoteService.slow', [5], 3),
      ],
      '/',
      { authorization: 'Bearer ada' },
    );
    expect(seen).toEqual(['NoteService.addNote 1', 'AdminService.wipe 2', 'NoteService.addNote undefined', 'NoteService.slow 3']);
    expect(json).toMatchObject([
      { id: 1, result: { text: 'a', author: 'ada' } },
      { id: 2, error: { code: 4003 } },
      { id: 3, result: 5 },
    ]);
  });
});

describe('typed context', () => {
  it('values a middleware adds reach the handler, typed through defineMiddleware and ContextOf', async () => {
    const auth = defineMiddleware<{ user: User }>()((rpc, next) =>
      next({ user: { name: rpc.ctx.headers['x-user'] ?? 'anon', admin: false } }),
    );
    const audit = defineMiddleware<{ auditId: string }, { user: User }>()((rpc, next) => next({ auditId: `${rpc.ctx.user.name}-1` }));
    type Ctx = ContextOf<typeof auth> & ContextOf<typeof audit>;
    expectTypeOf<Ctx['user']>().toEqualTypeOf<User>();
    expectTypeOf<Ctx['auditId']>().toEqualTypeOf<string>();
    expectTypeOf<Ctx>().toExtend<RpcContext>();

    // What tsc refuses: adding a value of the wrong type, forgetting it, reading one nobody adds.
    // @ts-expect-error user must be a User
    defineMiddleware<{ user: User }>()((_rpc, next) => next({ user: 42 }));
    // @ts-expect-error next must be given the user it adds
    defineMiddleware<{ user: User }>()((_rpc, next) => next());
    // @ts-expect-error nothing before this middleware adds `user`
    defineMiddleware()((rpc, next) => next(rpc.ctx.user));
    defineMiddleware<NoValues, { user: User }>()((rpc, next) => (rpc.ctx.user.admin ? next() : undefined));

    const handlers = notesHandlers(module);
    const options: Partial<RpcServerOptions> = { middleware: [auth, audit] };
    const server = createRpcServer({
      idl,
      logger: quiet,
      ...options,
      handlers: {
        ...handlers,
        NoteService: {
          ...handlers.NoteService,
          addNote: (text: string, ctx: Ctx) => ({ id: ctx.auditId, text, author: ctx.user.name }),
        },
      },
    });
    expect((await post(server, call('NoteService.addNote', ['hi']), '/', { 'x-user': 'ada' })).json.result).toEqual({
      id: 'ada-1',
      text: 'hi',
      author: 'ada',
    });
  });
});

describe('onCall', () => {
  it('reports every answered call with its duration and outcome, batch members and refused params included', async () => {
    const events: { method: string; id: unknown; outcome: string; error?: { code: number }; durationMs: number }[] = [];
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      ...productionOptions(module),
      onCall: (event) => void events.push(event),
    });
    await post(server, [call('NoteService.slow', [20], 1), call('NoteService.slow', ['x'], 2), call('AdminService.wipe', [], 3)], '/', {
      authorization: 'Bearer root',
    });
    await post(server, { text: 'r' }, '/NoteService/addNote');
    expect(events.map(({ method, id, outcome, error }) => ({ method, id, outcome, code: error?.code }))).toEqual([
      { method: 'NoteService.slow', id: 2, outcome: 'error', code: -32602 },
      { method: 'AdminService.wipe', id: 3, outcome: 'result', code: undefined },
      { method: 'NoteService.slow', id: 1, outcome: 'result', code: undefined },
      { method: 'NoteService.addNote', id: null, outcome: 'error', code: 4001 },
    ]);
    expect(events[2].durationMs).toBeGreaterThanOrEqual(15);
  });

  it('a throwing hook is logged and the call still answered', async () => {
    const logged: unknown[] = [];
    const server = createRpcServer({
      idl,
      handlers: notesHandlers(module),
      logger: { error: (message) => void logged.push(message) },
      onCall: () => {
        throw new Error('hook broke');
      },
    });
    expect((await post(server, call('AdminService.wipe', []))).json.result).toBe(0);
    expect(logged).toEqual(['onCall failed']);
  });
});

describe('start-up checks', () => {
  const attempt = (options: Partial<RpcServerOptions>) => () => createRpcServer({ idl, handlers: notesHandlers(module), ...options });
  it('names what is wrong', () => {
    expect(attempt({ middlewareFor: { NoteServise: [] } })).toThrow(
      'createRpcServer: middlewareFor["NoteServise"] names no registered interface or "Interface.method" (interfaces: NoteService, AdminService)',
    );
    expect(attempt({ middleware: [42 as never] })).toThrow('createRpcServer: middleware must be functions (call, next) => ..., got number');
    expect(attempt({ httpStatus: { Unauthorised: 401 } })).toThrow(
      'createRpcServer: httpStatus names "Unauthorised", which is not an error of the IDL (errors: notes.Unauthorized, notes.Forbidden, notes.NoteNotFound)',
    );
    expect(attempt({ httpStatus: { Unauthorized: 200 } })).toThrow(
      'createRpcServer: httpStatus.Unauthorized must be an HTTP error status from 400 to 599, got 200',
    );
  });
});
