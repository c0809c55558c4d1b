/**
 * Graceful shutdown of `listen`'s server: with 200 slow calls in flight, `shutdown()` (and, in a
 * child process, SIGTERM with `shutdownSignals`) answers every one of them, then frees the port;
 * the timeout bounds the wait.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../runtime/client.js';
import { listen } from '../../runtime/index.js';
import { freePort, waitForOutput } from '../child-process.js';
import { importNotesModule, type NotesModule, notesHandlers, notesModuleCode } from './notes-service.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const CALLS = 200;
const SLOW_MS = 400;

let module: NotesModule;
beforeAll(async () => {
  module = await importNotesModule();
});

/** A generated client (Node's fetch opens a connection per concurrent call, and keeps them alive). */
function client(url: string) {
  return new module.NoteServiceClient(new HttpTransport(url));
}

/** Resolves when nothing listens on `port` any more (a listen there succeeds). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('shutdown()', () => {
  it(`answers all ${CALLS} calls in flight, refuses new connections, then frees the port`, async () => {
    let started = 0;
    const handlers = notesHandlers(module);
    const slow = handlers.NoteService.slow;
    handlers.NoteService.slow = (ms, ctx) => (started++, slow(ms, ctx));
    const httpServer = await listen(module.createNotesServer(handlers), { port: 0, host: '127.0.0.1' });
    const port = (httpServer.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    const calls = Array.from({ length: CALLS }, () => client(url).slow(SLOW_MS));
    await expect.poll(() => started, { timeout: 10_000, interval: 10 }).toBe(CALLS);

    const shutdown = httpServer.shutdown({ timeoutMs: 10_000 });
    expect(httpServer.shutdown()).toBe(shutdown);
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
    const answers = await Promise.allSettled(calls);
    expect(answers.filter((answer) => answer.status === 'fulfilled' && answer.value === SLOW_MS)).toHaveLength(CALLS);
    expect(await shutdown).toEqual({ timedOut: false });
    expect(await portIsFree(port)).toBe(true);
  });

  it('closes the connections of calls still running when the timeout passes', async () => {
    const httpServer = await listen(module.createNotesServer(notesHandlers(module)), { port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(httpServer.address() as { port: number }).port}`;
    const call = client(url).slow(5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    expect(await httpServer.shutdown({ timeoutMs: 200 })).toEqual({ timedOut: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(call).rejects.toThrow(/Transport error/);
  });
});

describe('SIGTERM with shutdownSignals', () => {
  it(`in a child process: all ${CALLS} calls in flight are answered, then the process ends by the signal and the port is free`, async () => {
    const dir = path.join(repoRoot, 'test-output/runtime/shutdown-child');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes.mjs'), notesModuleCode('dist/runtime'));
    writeFileSync(
      path.join(dir, 'server.mjs'),
      `import { listen } from ${JSON.stringify(path.join(repoRoot, 'dist/runtime/index.js'))};
import { createNotesServer } from './notes.mjs';
let started = 0;
const handlers = {
  NoteService: {
    addNote: () => { throw new Error('unused'); },
    getNote: () => { throw new Error('unused'); },
    slow: (ms) => { if (++started === ${CALLS}) console.log('all calls started'); return new Promise((resolve) => setTimeout(() => resolve(ms), ms)); },
  },
  AdminService: { wipe: () => 0 },
};
await listen(createNotesServer(handlers), { port: Number(process.env.PORT), host: '127.0.0.1', shutdownSignals: true });
console.log('listening');
`,
    );
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(dir, 'server.mjs')], { env: { ...process.env, PORT: String(port) }, stdio: 'pipe' });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await waitForOutput(child, /listening/, 15_000, 'the server');
    const allStarted = waitForOutput(child, /all calls started/, 15_000, 'the server');
    const calls = Array.from({ length: CALLS }, () => client(`http://127.0.0.1:${port}`).slow(SLOW_MS));
    await allStarted;
    child.kill('SIGTERM');
    const answers = await Promise.allSettled(calls);
    expect(answers.filter((answer) => answer.status === 'fulfilled' && answer.value === SLOW_MS)).toHaveLength(CALLS);
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await portIsFree(port)).toBe(true);
  }, 60_000);
});
