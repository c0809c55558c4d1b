/**
 * The generated TypeScript of an IDL with constraints, defaults and optional parameters type-checks
 * under the generated (strict) tsconfig: callers may leave optional parameters out (not required
 * ones), a handler's optional parameter is `T` with a default and `T | undefined` without one.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, repoRoot, typeCheck } from './helpers.js';

const attributesIdl = path.join(repoRoot, 'test/runtime/fixtures/attributes.idl');

const USES = `import { HttpTransport } from './runtime/client.js';
import { CatalogClient } from './client.js';
import { createCatalogServer, type Catalog } from './server.js';
import type { Filter, Page } from './types.js';

const handler: Catalog = {
  list(query: string, cursor: string | undefined, perPage: number, filter: Filter | undefined): Page {
    return { items: [query, cursor ?? '', String(filter?.minPrice ?? 0)], perPage };
  },
  contact(email: string, site: string | undefined): boolean {
    return email.length > 0 && site !== '';
  },
};
createCatalogServer({ Catalog: handler });
const client = new CatalogClient(new HttpTransport('http://127.0.0.1:1'));
export const first: Promise<Page> = client.list('shoes');
export const second: Promise<Page> = client.list('shoes', undefined, 5);
export const third: Promise<boolean> = client.contact('a@example.com');
`;

test('generated code with attribute lists type-checks: optional parameters may be left out', async () => {
  const dir = freshDir('attributes');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', attributesIdl]);
  expect(generated).toMatchObject({ code: 0, stderr: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });
  // The required parameter stays required.
  writeFileSync(path.join(dir, 'uses.ts'), USES.replace("client.list('shoes');", 'client.list();'));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(/uses\.ts\(\d+,\d+\): error TS2554: Expected 1-5 arguments, but got 0/);
});
