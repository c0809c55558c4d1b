/**
 * Random edits of checkout.idl sent to the server as the editor sends them (ranges with new text):
 * after each edit the published diagnostics are `idlrpc -validate`'s on the same text (file, line,
 * column and message of each), and hover still answers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver/node';
import { main } from '../../src/cli/main.js';
import { ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { fileUri, type LspClient, startLspClient } from './lsp-client.js';
import { positionOf } from './positions.js';

const CHECKOUT = readFileSync(join(REPO_ROOT, 'playground/checkout.idl'), 'utf8');
/** Pieces of IDL and of near-IDL that edits insert. */
const INSERTIONS = [
  '',
  ' ',
  '\n',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  '"',
  '//',
  'struct',
  'Cart',
  'Crat',
  'int',
  '[]',
  'map[string]',
  'raises(',
  'extends Cart',
  '[optional]',
  '1001',
  'import "missing.idl"\n',
  'é',
  '\u{1F600}',
];

let client: LspClient;
let folder: string;

beforeAll(async () => {
  ensureBuilt();
  folder = mkdtempSync(join(tmpdir(), 'idlrpc-lsp-fuzz-'));
  client = await startLspClient();
});

afterAll(async () => {
  await client?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `line:column: message` lines of `idlrpc -validate` (the CLI's code, in this process) for `text`. */
async function validateHeaders(text: string): Promise<string[]> {
  writeFileSync(join(folder, 'fuzz.idl'), text);
  let stderr = '';
  await main(['-validate', 'fuzz.idl'], { stdout: () => {}, stderr: (t) => (stderr += t), cwd: folder });
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('fuzz.idl:'))
    .map((line) => line.slice('fuzz.idl:'.length).replace(/^(\d+:\d+): (?:error|warning|note): /, '$1: '));
}

const headers = (diagnostics: Diagnostic[]) =>
  diagnostics.slice(0, 100).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);

test('after every edit: the CLI diagnostics, and hover answers', async () => {
  const uri = fileUri(join(folder, 'fuzz.idl'));
  client.open(uri, CHECKOUT);
  await client.diagnostics(uri, 1);
  let version = 1;
  const edit = fc.record({ start: fc.nat(), length: fc.nat({ max: 30 }), text: fc.constantFrom(...INSERTIONS), hoverAt: fc.nat() });
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
      let text = CHECKOUT;
      version++;
      await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      for (const { start, length, text: inserted, hoverAt } of edits) {
        const from = start % (text.length + 1);
        const to = Math.min(text.length, from + length);
        const range = { start: positionOf(text, '', 0, from), end: positionOf(text, '', 0, to) };
        text = text.slice(0, from) + inserted + text.slice(to);
        version++;
        await client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [{ range, text: inserted }],
        });
        const published = await client.diagnostics(uri, version);
        expect(headers(published)).toEqual(await validateHeaders(text));
        const hoverOffset = hoverAt % (text.length + 1);
        const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, '', 0, hoverOffset) });
        expect(hover === null || typeof hover === 'object').toBe(true);
      }
    }),
    { numRuns: 60 },
  );
  expect(client.stderr()).toBe('');
  expect(client.logged()).toEqual([]);
});
