/**
 * The notes service of the production-server tests (fixtures/notes.idl): its generated module,
 * written under test-output/ and imported (the runtime imports point at `runtime/` sources, or at
 * dist/ for a child process, which cannot load TypeScript), and handlers that read `ctx.user`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import {
  defineMiddleware,
  type NoValues,
  type CallOptions,
  type DeclaredErrorClass,
  type RpcContext,
  type RpcServer,
  type RpcServerOptions,
  type Transport,
} from '../../runtime/index.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const notesIdlFile = path.join(repoRoot, 'test/runtime/fixtures/notes.idl');

export interface Note {
  id: string;
  text: string;
  author: string;
}

/** What a signed-in call carries in its context (the auth middleware of the tests adds it). */
export interface User {
  name: string;
  admin: boolean;
}

export type NotesHandlers = {
  NoteService: {
    addNote(text: string, ctx: RpcContext & { user: User }): Note | Promise<Note>;
    getNote(id: string, ctx: RpcContext & { user: User }): Note | Promise<Note>;
    slow(ms: number, ctx: RpcContext): Promise<number>;
  };
  AdminService: { wipe(ctx: RpcContext): number };
};

/** The parts of the generated module the tests use, typed (the module itself is written at test time). */
export interface NotesModule {
  createNotesServer(handlers: NotesHandlers, options?: Omit<RpcServerOptions, 'idl' | 'handlers' | 'validators'>): RpcServer;
  NoteServiceClient: new (
    transport: Transport,
  ) => {
    addNote(text: string, options?: CallOptions): Promise<Note>;
    getNote(id: string, options?: CallOptions): Promise<Note>;
    slow(ms: number, options?: CallOptions): Promise<number>;
  };
  AdminServiceClient: new (transport: Transport) => { wipe(options?: CallOptions): Promise<number> };
  UnauthorizedError: DeclaredErrorClass & (new (detail?: string) => Error);
  ForbiddenError: DeclaredErrorClass & (new (detail?: string) => Error);
  NoteNotFoundError: DeclaredErrorClass & (new (detail?: string) => Error);
}

/** The generated module's JavaScript, importing the runtime from `runtimeDir` (`runtime` sources or `dist/runtime`). */
export function notesModuleCode(runtimeDir: 'runtime' | 'dist/runtime'): string {
  const extension = runtimeDir === 'runtime' ? 'ts' : 'js';
  const model = compileIdl(readFileSync(notesIdlFile, 'utf8'), 'notes.idl');
  return generateModule(model, {
    runtimeImport: pathToFileURL(path.join(repoRoot, runtimeDir, `index.${extension}`)).href,
    runtimeClientImport: pathToFileURL(path.join(repoRoot, runtimeDir, `client.${extension}`)).href,
    sourceFile: 'notes.idl',
  }).js;
}

/** Writes the generated module (runtime from the sources) under test-output/ and imports it. */
export async function importNotesModule(): Promise<NotesModule> {
  const dir = path.join(repoRoot, 'test-output/runtime');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `notes-${process.pid}.mjs`);
  writeFileSync(file, notesModuleCode('runtime'));
  return (await import(pathToFileURL(file).href)) as NotesModule;
}

/** Handlers whose notes are written by `ctx.user`; `slow(ms)` answers `ms` after waiting that long. */
export function notesHandlers({ NoteNotFoundError }: Pick<NotesModule, 'NoteNotFoundError'>): NotesHandlers {
  const notes = new Map<string, Note>();
  return {
    NoteService: {
      addNote(text, ctx) {
        const note = { id: `n${notes.size + 1}`, text, author: ctx.user.name };
        notes.set(note.id, note);
        return note;
      },
      getNote(id) {
        const note = notes.get(id);
        if (!note) throw new NoteNotFoundError(id);
        return note;
      },
      slow: (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
    },
    AdminService: { wipe: () => 0 },
  };
}

/** Signs a call in from `authorization: Bearer <name>` (`root` is an admin), else rejects it with Unauthorized. */
export function authMiddleware({ UnauthorizedError }: Pick<NotesModule, 'UnauthorizedError'>) {
  return defineMiddleware<{ user: User }>()((call, next) => {
    const token = call.ctx.headers.authorization;
    if (token === undefined || !token.startsWith('Bearer ')) throw new UnauthorizedError();
    const name = token.slice('Bearer '.length);
    return next({ user: { name, admin: name === 'root' } });
  });
}

/** Lets only admins through (after `authMiddleware`), else Forbidden. */
export function adminOnlyMiddleware({ ForbiddenError }: Pick<NotesModule, 'ForbiddenError'>) {
  return defineMiddleware<NoValues, { user: User }>()((call, next) => {
    if (!call.ctx.user.admin) throw new ForbiddenError(`${call.ctx.user.name} is no admin`);
    return next();
  });
}

/** The origin the tests allow (and one they do not). */
export const ALLOWED_ORIGIN = 'http://app.test';
export const OTHER_ORIGIN = 'http://elsewhere.test';

/** The server options every framework test uses: CORS for ALLOWED_ORIGIN, auth everywhere, admins only on AdminService. */
export function productionOptions(module: NotesModule): Omit<RpcServerOptions, 'idl' | 'handlers' | 'validators'> {
  return {
    cors: { origins: [ALLOWED_ORIGIN] },
    middleware: [authMiddleware(module)],
    middlewareFor: { AdminService: [adminOnlyMiddleware(module)] },
    httpStatus: { Unauthorized: 401, Forbidden: 403 },
    logger: { error: () => undefined },
  };
}
