/**
 * The built-in types timestamp, date, bytes and json end to end: code generated from an IDL that
 * uses all four, its server listening on 127.0.0.1 and its generated client calling it over HTTP.
 * The handler gets `Date` and `Uint8Array`, the client gets them back; bad wire values get -32602
 * with the path of every problem, and the handler never runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../runtime/client.js';
import { listen } from '../../runtime/index.js';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { post, serverHandle, type TestServer } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const IDL = `namespace files

struct Upload {
    at         timestamp
    day        date
    content    bytes
    meta       json
    history    []timestamp
    parts      map[string]bytes
    seen       timestamp         [optional]
}

interface Files {
    put(upload Upload, when timestamp) Upload

    echoJson(value json) json

    stamp(day date) timestamp
}
`;

type Upload = {
  at: Date;
  day: string;
  content: Uint8Array;
  meta: unknown;
  history: Date[];
  parts: Record<string, Uint8Array>;
  seen?: Date | null;
};

let server: TestServer;
let client: {
  put(upload: Upload, when: Date): Promise<Upload>;
  echoJson(value: unknown): Promise<unknown>;
  stamp(day: string): Promise<Date>;
};
const received: unknown[][] = [];

beforeAll(async () => {
  const { js } = generateModule(compileIdl(IDL, 'files.idl'), {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: 'files.idl',
  });
  const dir = path.join(repoRoot, 'test-output/runtime/built-in-types');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `files-${process.pid}.mjs`);
  writeFileSync(out, js);
  const generated: any = await import(pathToFileURL(out).href);
  const rpc = generated.createFilesServer({
    Files: {
      put(upload: Upload, when: Date) {
        received.push([upload, when]);
        return { ...upload, at: when };
      },
      echoJson(value: unknown) {
        received.push([value]);
        return value;
      },
      stamp(day: string) {
        received.push([day]);
        return new Date(`${day}T00:00:00.000Z`);
      },
    },
  });
  server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
  client = new generated.FilesClient(new HttpTransport(`${server.url}/rpc`));
});

afterAll(async () => {
  await server?.close();
});

describe('timestamp, date, bytes and json over HTTP', () => {
  it('round-trips Date, Uint8Array, date strings and json values, the handler seeing Date and Uint8Array', async () => {
    received.length = 0;
    const upload: Upload = {
      at: new Date('2026-01-31T12:00:00.123Z'),
      day: '2024-02-29',
      content: new Uint8Array([0, 1, 2, 250, 255]),
      meta: { nested: [1, 'two', null, true] },
      history: [new Date('2000-01-01T00:00:00.000Z')],
      parts: { a: new Uint8Array([104, 105]), b: new Uint8Array() },
      seen: null,
    };
    const when = new Date('2026-02-01T08:30:00.000Z');
    const result = await client.put(upload, when);
    expect(result).toEqual({ ...upload, at: when });
    expect(result.at).toBeInstanceOf(Date);
    expect(result.content).toBeInstanceOf(Uint8Array);
    expect(result.parts.a).toBeInstanceOf(Uint8Array);
    const [handlerUpload, handlerWhen] = received[0] as [Upload, Date];
    expect(handlerWhen).toBeInstanceOf(Date);
    expect(handlerUpload.at).toBeInstanceOf(Date);
    expect(handlerUpload.history[0]).toBeInstanceOf(Date);
    expect(handlerUpload.content).toEqual(new Uint8Array([0, 1, 2, 250, 255]));
    expect(handlerUpload.day).toBe('2024-02-29');
    // The caller's objects are left as they were.
    expect(upload.at).toBeInstanceOf(Date);
  });

  it('json holds any JSON value, null too', async () => {
    for (const value of [null, 0, 'text', [1, [2]], { a: { b: null } }]) expect(await client.echoJson(value)).toEqual(value);
  });

  it('a timestamp result is a Date, written with toISOString', async () => {
    const at = await client.stamp('2026-03-01');
    expect(at).toBeInstanceOf(Date);
    expect(at.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    const response = await post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'Files.stamp', params: ['2026-03-01'] });
    expect(response.json).toMatchObject({ result: '2026-03-01T00:00:00.000Z' });
  });

  it('accepts every RFC 3339 spelling: lower-case t and z, offsets, many fraction digits', async () => {
    const upload = {
      at: '2026-01-31t12:00:00.123456789z',
      day: '2026-12-31',
      content: 'AAEC+v8=',
      meta: null,
      history: ['2026-01-31T14:00:00+02:00', '2026-01-31T12:00:00Z'],
      parts: {},
    };
    const response = await post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'Files.put', params: [upload, upload.at] });
    expect(response.json).toMatchObject({
      result: {
        at: '2026-01-31T12:00:00.123Z',
        history: ['2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00.000Z'],
        content: 'AAEC+v8=',
        meta: null,
      },
    });
  });

  it('the REST binding converts the same way, and refuses bad values with 400 and their paths', async () => {
    received.length = 0;
    const good = await post(`${server.url}/Files/stamp`, { day: '2024-02-29' });
    expect(good).toMatchObject({ status: 200, json: '2024-02-29T00:00:00.000Z' });
    expect(received).toEqual([['2024-02-29']]);
    const bad = await post(`${server.url}/Files/stamp`, { day: '2023-02-29' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      code: -32602,
      data: { errors: [{ path: 'params.day', message: 'expected a date that exists, written YYYY-MM-DD' }] },
    });
    expect(received).toHaveLength(1);
  });

  it('bad wire values: -32602 with the path of every problem, and the handler never runs', async () => {
    received.length = 0;
    const upload = {
      at: '2026-01-31 12:00:00', // no T, no offset
      day: '2026-02-30', // no such day
      content: 'AAEC-v8_', // base64url
      history: ['2026-01-31T23:59:60Z'], // a leap second
      parts: { x: 'abc' }, // no padding
    };
    const response = await post(`${server.url}/rpc`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'Files.put',
      params: [upload, '2026-13-01T00:00:00Z'],
    });
    const error = (response.json as { error: { code: number; data: { errors: { path: string; message: string }[] } } }).error;
    expect(error.code).toBe(-32602);
    expect(error.data.errors.map((problem) => problem.path)).toEqual([
      'params[0].at',
      'params[0].day',
      'params[0].content',
      'params[0]',
      'params[0].history[0]',
      'params[0].parts.x',
      'params[1]',
    ]);
    expect(error.data.errors.find((problem) => problem.path === 'params[0]')?.message).toBe("missing required field 'meta'");
    expect(error.data.errors[0].message).toMatch(/RFC 3339/);
    expect(received).toEqual([]);
  });

  it('a handler returning an invalid Date gets -32603, and the server keeps serving', async () => {
    const { js } = generateModule(
      compileIdl('namespace odd\ninterface Odd {\n    at() timestamp\n    raw(b bytes) string\n}\n', 'odd.idl'),
      {
        runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
        runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
        sourceFile: 'odd.idl',
      },
    );
    const out = path.join(repoRoot, 'test-output/runtime/built-in-types', `odd-${process.pid}.mjs`);
    writeFileSync(out, js);
    const generated = await import(pathToFileURL(out).href);
    const handlers = { Odd: { at: () => new Date(Number.NaN), raw: (b: unknown) => (b instanceof Uint8Array ? 'bytes' : typeof b) } };
    const rpc = generated.createOddServer(handlers, { validateRequests: false, logger: { error: () => undefined } });
    const odd = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
    try {
      const call = (method: string, params: unknown[]) => post(`${odd.url}/rpc`, { jsonrpc: '2.0', id: 1, method, params });
      expect((await call('Odd.at', [])).json).toMatchObject({ error: { code: -32603 } });
      // Without request validation, bytes that are no base64 reach the handler as sent.
      expect((await call('Odd.raw', ['not base64!'])).json).toMatchObject({ result: 'string' });
      expect((await call('Odd.raw', ['aGk='])).json).toMatchObject({ result: 'bytes' });
    } finally {
      await odd.close();
    }
  });
});
