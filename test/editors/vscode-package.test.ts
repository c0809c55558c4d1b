/**
 * The VS Code extension packs into a .vsix (esbuild bundles, then `vsce package --no-dependencies`);
 * unzipped into a temporary folder, its manifest registers `.idl` with the grammar it carries, and its
 * bundled language server starts from there and answers `initialize` and diagnostics.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from '../cli/run-cli.js';
import { fileUri, startLspClient } from '../language-server/lsp-client.js';

const run = promisify(execFile);
const EXTENSION_DIR = join(REPO_ROOT, 'editors/vscode');
let folder: string;
let files: Record<string, Uint8Array>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'idlrpc-vsix-'));
  const vsix = join(folder, 'idl-rpc.vsix');
  await run(process.execPath, ['build.mjs'], { cwd: EXTENSION_DIR, timeout: 60_000 });
  const vsce = join(REPO_ROOT, 'node_modules/@vscode/vsce/vsce');
  await run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], {
    cwd: EXTENSION_DIR,
    timeout: 60_000,
  });
  files = unzipSync(readFileSync(vsix));
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    const target = join(folder, 'unpacked', name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}, 90_000);

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test('the .vsix holds the bundles, the grammar and the manifest, and nothing else of the repository', () => {
  expect(Object.keys(files).sort()).toEqual([
    '[Content_Types].xml',
    'extension.vsixmanifest',
    'extension/LICENSE.txt',
    'extension/dist/extension.js',
    'extension/dist/server.mjs',
    'extension/language-configuration.json',
    'extension/package.json',
    'extension/readme.md',
    'extension/syntaxes/idl.tmLanguage.json',
  ]);
  const manifest = JSON.parse(new TextDecoder().decode(files['extension/package.json']));
  expect(manifest.contributes.languages[0]).toMatchObject({ id: 'idl-rpc', extensions: ['.idl'] });
  expect(manifest.contributes.grammars[0]).toMatchObject({ language: 'idl-rpc', scopeName: 'source.idl-rpc' });
  expect(files[`extension/${manifest.contributes.grammars[0].path.replace('./', '')}`]).toBeDefined();
  expect(manifest.main).toBe('./dist/extension.js');
});

test('the server inside it starts from the unpacked folder and reports diagnostics', async () => {
  const unpacked = join(folder, 'unpacked', 'extension');
  const client = await startLspClient([process.execPath, join(unpacked, 'dist/server.mjs'), '--stdio'], unpacked);
  try {
    expect(client.initializeResult.capabilities.hoverProvider).toBe(true);
    const uri = fileUri(join(folder, 'shop.idl'));
    client.open(uri, 'namespace shop\n\nstruct Item {\n    price Mony\n}\n');
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.message, d.range])).toEqual([
      ["unknown type 'Mony'", { start: { line: 3, character: 10 }, end: { line: 3, character: 14 } }],
    ]);
  } finally {
    await client.close();
  }
  expect(client.stderr()).toBe('');
});
