/**
 * The generated TypeScript of an IDL with timestamp, date, bytes and json type-checks under the
 * generated (strict) tsconfig, with handlers and callers using `Date`, `Uint8Array`, `string` and
 * `unknown`, and refuses a caller that passes a string where a timestamp's `Date` goes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { freshDir, idlrpc, repoRoot, typeCheck } from './helpers.js';

const wireFormsIdl = path.join(repoRoot, 'test/runtime/fixtures/wire-forms.idl');

const USES = `import { HttpTransport } from './runtime/client.js';
import { WireClient } from './client.js';
import { createWireServer, type Wire } from './server.js';
import type { Stamped } from './types.js';

const handler: Wire = {
  put(stamped: Stamped, at: Date, day: string, raw: Uint8Array, data: unknown): Stamped {
    return { ...stamped, at, day, raw, data, blobs: { a: raw }, days: [day] };
  },
  when(days: string[]): Date | null {
    return days.length === 0 ? null : new Date(days[0]);
  },
};
createWireServer({ Wire: handler });
const client = new WireClient(new HttpTransport('http://127.0.0.1:1'));
export const result: Promise<Stamped> = client.put(
  { at: new Date(), day: '2026-01-01', raw: new Uint8Array(), data: null, days: [], blobs: {} },
  new Date(),
  '2026-01-01',
  new Uint8Array([1]),
  { any: ['json'] },
);
export const when: Promise<Date | null> = client.when(['2026-01-01']);
`;

test('generated code of the built-in types type-checks with Date, Uint8Array, string and unknown', async () => {
  const dir = freshDir('built-in-types');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', wireFormsIdl]);
  expect(generated).toMatchObject({ code: 0, stderr: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES);
  expect(typeCheck(dir, false)).toEqual({ status: 0, output: '' });
  writeFileSync(path.join(dir, 'uses.ts'), USES.replace('  new Date(),\n', "  '2026-01-01T00:00:00Z',\n"));
  const wrong = typeCheck(dir, false);
  expect(wrong.status).not.toBe(0);
  expect(wrong.output).toMatch(
    /uses\.ts\(\d+,\d+\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Date'/,
  );
});
