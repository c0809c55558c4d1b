/**
 * Diagnostics the language server sends show control and bidirectional characters of the file as
 * visible escapes, as the CLI prints them: an editor's problem list and hovers are no place for an
 * ESC sequence or a right-to-left override (here quoted from an import's path).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../cli/run-cli.js';
import { fileUri, type LspClient, startLspClient } from './lsp-client.js';

let client: LspClient;
let folder: string;

beforeAll(async () => {
  ensureBuilt();
  folder = mkdtempSync(join(tmpdir(), 'idlrpc-lsp-controls-'));
  client = await startLspClient();
});
afterAll(async () => {
  await client.close();
  rmSync(folder, { recursive: true, force: true });
});

test('an import path with ESC ] 0 ; ... BEL, ESC [ 2 J and U+202E: the message shows them escaped', async () => {
  const uri = fileUri(join(folder, 'evil.idl'));
  client.open(uri, 'namespace shop\nimport "\u001b]0;pwned\u0007\u001b[2J\u202eevil.idl"\n');
  const diagnostics = await client.diagnostics(uri, 1);
  expect(diagnostics.map((d) => d.message)).toEqual(['cannot import "\\u001b]0;pwned\\u0007\\u001b[2J\\u202eevil.idl": no such file']);
});
