/**
 * Attribute lists end to end: code generated from an IDL with constraints, defaults and optional
 * parameters, its server listening on 127.0.0.1, called with its generated client, with raw
 * JSON-RPC (positional and named) and over REST. Defaults reach the handler, left-out parameters
 * without one are `undefined`, a default is never shared between calls, and values that break a
 * constraint get -32602 with the path of every problem while the handler never runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../runtime/client.js';
import { listen } from '../../runtime/index.js';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { post, serverHandle, type TestServer } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const IDL = readFileSync(path.join(repoRoot, 'test/runtime/fixtures/attributes.idl'), 'utf8');

type Filter = { tags?: string[] | null; minPrice?: number | null };
type Page = { items: string[]; perPage: number; cursor?: string | null };

let server: TestServer;
let client: {
  list(query: string, cursor?: string, perPage?: number, filter?: Filter): Promise<Page>;
  contact(email: string, site?: string): Promise<boolean>;
};
const received: unknown[][] = [];
const sent: unknown[] = [];

beforeAll(async () => {
  const { js } = generateModule(compileIdl(IDL, 'attributes.idl'), {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: 'attributes.idl',
  });
  const dir = path.join(repoRoot, 'test-output/runtime/attributes');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `catalog-${process.pid}.mjs`);
  writeFileSync(out, js);
  const generated: any = await import(pathToFileURL(out).href);
  const rpc = generated.createCatalogServer({
    Catalog: {
      list(query: string, cursor: string | undefined, perPage: number, filter: Filter | undefined) {
        received.push([query, cursor, perPage, filter]);
        // Changing what a default gave must not change the next call's default.
        (filter?.tags as string[] | undefined)?.push('changed');
        return { items: [query], perPage };
      },
      contact(email: string, site: string | undefined) {
        received.push([email, site]);
        return true;
      },
    },
  });
  server = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1' }));
  const transport = new HttpTransport(`${server.url}/rpc`);
  const recording = {
    call(method: string, params: unknown[], options?: unknown) {
      sent.push(params);
      return transport.call(method, params, options as never);
    },
  };
  client = new generated.CatalogClient(recording);
});

afterAll(async () => {
  await server?.close();
});

const rpc = (method: string, params: unknown) => post(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: `Catalog.${method}`, params });

describe('optional parameters and defaults', () => {
  it('the generated client leaves trailing optional parameters out; the handler gets defaults or undefined', async () => {
    received.length = 0;
    sent.length = 0;
    expect(await client.list('shoes')).toEqual({ items: ['shoes'], perPage: 30 });
    expect(sent).toEqual([['shoes']]);
    expect(received).toEqual([['shoes', undefined, 30, undefined]]);
    await client.list('shoes', undefined, 5);
    expect(sent[1]).toEqual(['shoes', undefined, 5]);
    expect(received[1]).toEqual(['shoes', undefined, 5, undefined]);
  });

  it('fills field defaults of a struct a request carries, fresh for each call', async () => {
    received.length = 0;
    await client.list('a', 'c1', 10, {});
    await client.list('a', 'c1', 10, { minPrice: null });
    expect(received[0][3]).toEqual({ tags: ['changed'], minPrice: 0 });
    expect(received[1][3]).toEqual({ tags: ['changed'], minPrice: 0 });
  });

  it('positional callers may send null; named callers omit or send null', async () => {
    received.length = 0;
    expect((await rpc('list', ['x', null, null])).json).toMatchObject({ result: { perPage: 30 } });
    expect((await rpc('list', { query: 'y' })).json).toMatchObject({ result: { perPage: 30 } });
    expect((await rpc('list', { query: 'z', perPage: null, cursor: 'c' })).json).toMatchObject({ result: { perPage: 30 } });
    expect(received).toEqual([
      ['x', undefined, 30, undefined],
      ['y', undefined, 30, undefined],
      ['z', 'c', 30, undefined],
    ]);
  });

  it('REST: optional parameters are optional body members, with their defaults', async () => {
    received.length = 0;
    const response = await post(`${server.url}/rpc/Catalog/list`, { query: 'rest' });
    expect(response.json).toMatchObject({ items: ['rest'], perPage: 30 });
    expect(received).toEqual([['rest', undefined, 30, undefined]]);
  });

  it('refuses a required parameter left out, and too many', async () => {
    expect((await rpc('list', [])).json).toMatchObject({ error: { code: -32602 } });
    expect((await rpc('list', ['a', null, 1, {}, 'extra'])).json).toMatchObject({ error: { code: -32602 } });
    expect((await rpc('list', { perPage: 3 })).json).toMatchObject({
      error: { code: -32602, data: { errors: [{ path: 'params', message: "missing parameter 'query'" }] } },
    });
  });
});

describe('constraints on the wire', () => {
  it('lists every problem with its path, and the handler never runs', async () => {
    received.length = 0;
    const positional = await rpc('list', ['', null, 101, { tags: ['a', 'b', 'c', 'd'], minPrice: -1 }]);
    expect(positional.json).toMatchObject({ error: { code: -32602 } });
    const { errors } = (positional.json as any).error.data;
    expect(errors.map((e: any) => e.path)).toEqual(['params[0]', 'params[2]', 'params[3].tags', 'params[3].minPrice']);
    const named = await rpc('contact', { email: 'nobody', site: 'not a uri' });
    expect((named.json as any).error.data.errors).toEqual([
      { path: 'params.email', message: 'expected an email address (local@domain)' },
      { path: 'params.site', message: 'expected an absolute URI (RFC 3986)' },
    ]);
    expect(received).toEqual([]);
  });
});
