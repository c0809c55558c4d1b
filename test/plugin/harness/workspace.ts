/**
 * Test folders under the gitignored `test-output/plugin`: each suite works on its own copy of the
 * fixture app, so the `.idl.d.ts` the plugin writes and the edits a test makes never touch the
 * committed fixture.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixtureApp = path.join(repoRoot, 'test/plugin/fixtures/app');

/** A fresh, empty `test-output/plugin/<name>`. */
export async function freshDir(name: string): Promise<string> {
  const dir = path.join(repoRoot, 'test-output/plugin', name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The one checkout IDL of the repository (the playground's), which the fixture app imports. */
export const checkoutIdlFile = path.join(repoRoot, 'playground/checkout.idl');

/** A copy of the fixture app, with `checkout.idl`, in a fresh `test-output/plugin/<name>`. */
export async function copyFixtureApp(name: string): Promise<string> {
  const dir = await freshDir(name);
  await cp(fixtureApp, dir, { recursive: true, filter: (source) => !/\.idl\.d\.ts(\.map)?$/.test(source) });
  await cp(checkoutIdlFile, path.join(dir, 'checkout.idl'));
  return dir;
}

/**
 * `idl` (the checkout IDL) with one syntax error: its `enum PaymentMethod {` line as
 * `enum PaymentMethod {{`, the second brace unexpected at `line`:`column`.
 */
export function withBrokenEnumLine(idl: string): { text: string; line: number; column: number } {
  const lines = idl.split('\n');
  const line = lines.findIndex((text) => text.startsWith('enum PaymentMethod')) + 1;
  lines[line - 1] = 'enum PaymentMethod {{';
  return { text: lines.join('\n'), line, column: lines[line - 1].indexOf('{{') + 2 };
}

/** A copy of the fixture app whose `checkout.idl` has one error: `subtotal floot`, at `line`:`column`. */
export async function copyBrokenFixtureApp(name: string): Promise<{ dir: string; line: number; column: number }> {
  const dir = await copyFixtureApp(name);
  const idlFile = path.join(dir, 'checkout.idl');
  const lines = (await readFile(idlFile, 'utf8')).split('\n');
  const line = lines.findIndex((text) => /^\s+subtotal\s+float/.test(text)) + 1;
  lines[line - 1] = lines[line - 1].replace('float', 'floot');
  await writeFile(idlFile, lines.join('\n'));
  return { dir, line, column: lines[line - 1].indexOf('floot') + 1 };
}

/** A copy of the fixture folder `test/plugin/fixtures/<fixture>` in a fresh `test-output/plugin/<name>`. */
export async function copyFixture(fixture: string, name: string): Promise<string> {
  const dir = await freshDir(name);
  await cp(path.join(repoRoot, 'test/plugin/fixtures', fixture), dir, {
    recursive: true,
    filter: (source) => !/\.idl\.d\.ts(\.map)?$/.test(source),
  });
  return dir;
}

/** `http://127.0.0.1:<port>` of a listening server. */
export function addressOf(server: http.Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Closes a server, ending idle keep-alive connections so the test does not hang. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
