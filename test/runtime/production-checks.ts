/**
 * The behaviour every way of hosting the notes server must show (listen, Express, Fastify, Hono,
 * a Next.js-style route handler, the fetch handler): a generated client's calls with and without a
 * user, middleware rejections as declared errors and REST statuses, CORS, and reads over GET (a
 * `@readonly` method's GET form: its client option, ETag and 304, 405 for other methods). Each framework test
 * runs `checkProductionServer` against its own host.
 */
import { expect } from 'vitest';
import { HttpTransport, readOverGet } from '../../runtime/client.js';
import { ALLOWED_ORIGIN, type NotesModule, OTHER_ORIGIN } from './notes-service.js';

/** Sends a web-standard request to the host under test and gives its response. */
export type Send = (request: Request) => Promise<Response>;

/** Runs the checks against the server at `base` (the JSON-RPC endpoint; the REST binding is below it). */
export async function checkProductionServer(module: NotesModule, base: string, send: Send): Promise<void> {
  const fetchThrough: typeof fetch = (input, init) => send(new Request(input, init));
  const signedIn = new HttpTransport(base, { fetch: fetchThrough, headers: { authorization: 'Bearer ada' } });
  const notes = new module.NoteServiceClient(signedIn);

  // A generated client's call; the handler read ctx.user, which the auth middleware added.
  const note = await notes.addNote('hello');
  expect(note).toMatchObject({ text: 'hello', author: 'ada' });
  expect(await notes.getNote(note.id)).toStrictEqual(note);
  await expect(notes.getNote('missing')).rejects.toBeInstanceOf(module.NoteNotFoundError);

  // Rejected by middleware: a declared error over JSON-RPC (an RpcError with its code: generated
  // clients turn into classes only the errors a method `raises`), its mapped status over REST.
  const anonymous = new module.NoteServiceClient(new HttpTransport(base, { fetch: fetchThrough }));
  await expect(anonymous.addNote('x')).rejects.toMatchObject({
    code: module.UnauthorizedError.code,
    message: 'Unauthorized: sign in first',
  });
  await expect(new module.AdminServiceClient(signedIn).wipe()).rejects.toMatchObject({
    code: module.ForbiddenError.code,
    message: 'Forbidden: ada is no admin',
  });
  const admin = new module.AdminServiceClient(new HttpTransport(base, { fetch: fetchThrough, headers: { authorization: 'Bearer root' } }));
  expect(await admin.wipe()).toBe(0);
  const rest = (path: string, headers: Record<string, string> = {}, body = '{"text":"x"}') =>
    send(new Request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
  const unauthorized = await rest('/NoteService/addNote');
  expect(unauthorized.status).toBe(401);
  expect(await unauthorized.json()).toStrictEqual({ code: 4001, message: 'Unauthorized: sign in first' });
  expect((await rest('/AdminService/wipe', { authorization: 'Bearer ada' }, '{}')).status).toBe(403);
  expect(await (await rest('/NoteService/addNote', { authorization: 'Bearer bob' })).json()).toMatchObject({ author: 'bob' });

  // CORS: a preflight from the allowed origin, none from another, and the answer's own headers.
  const preflight = (origin: string) =>
    send(
      new Request(base, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
      }),
    );
  const allowed = await preflight(ALLOWED_ORIGIN);
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST');
  expect(allowed.headers.get('access-control-allow-headers')).toBe('content-type, authorization, x-idlrpc-contract');
  const refused = await preflight(OTHER_ORIGIN);
  expect(refused.status).toBe(405);
  expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  const call = (origin: string) =>
    send(
      new Request(base, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', authorization: 'Bearer ada' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NoteService.addNote', params: ['cors'] }),
      }),
    );
  const fromAllowed = await call(ALLOWED_ORIGIN);
  expect(fromAllowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  expect(await fromAllowed.json()).toMatchObject({ result: { author: 'ada' } });
  expect((await call(OTHER_ORIGIN)).headers.get('access-control-allow-origin')).toBeNull();

  await checkReadsOverGet(module, base, send);
}

/** A `@readonly` method (getNote) over GET, as every host must serve it. */
async function checkReadsOverGet(module: NotesModule, base: string, send: Send): Promise<void> {
  const methods: string[] = [];
  const fetchThrough: typeof fetch = (input, init) => {
    methods.push(init?.method ?? 'GET');
    return send(new Request(input, init));
  };
  const reads = new HttpTransport(base, { fetch: fetchThrough, headers: { authorization: 'Bearer ada' }, reads: readOverGet });
  const notes = new module.NoteServiceClient(reads);
  const note = await notes.addNote('read me');
  expect(await notes.getNote(note.id)).toStrictEqual(note);
  await expect(notes.getNote('missing')).rejects.toBeInstanceOf(module.NoteNotFoundError);
  expect(methods).toEqual(['POST', 'GET', 'GET']);

  const get = (path: string, headers: Record<string, string> = {}) =>
    send(new Request(`${base}${path}`, { headers: { authorization: 'Bearer ada', ...headers } }));
  const path = `/NoteService/getNote?id=${encodeURIComponent(JSON.stringify(note.id))}`;
  const first = await get(path, { origin: ALLOWED_ORIGIN });
  expect(first.status).toBe(200);
  expect(await first.json()).toStrictEqual(note);
  expect(first.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
  const again = await get(path, { 'if-none-match': etag! });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
  expect(again.headers.get('etag')).toBe(etag);
  // Middleware runs as for a POST: no user, no read.
  const anonymous = await send(new Request(`${base}${path}`));
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toStrictEqual({ code: 4001, message: 'Unauthorized: sign in first' });
  // Only @readonly methods answer GETs.
  expect((await get('/NoteService/addNote?text=%22x%22')).status).toBe(405);
}
