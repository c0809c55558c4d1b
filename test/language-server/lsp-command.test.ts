/**
 * `idlrpc -lsp` without its optional peer dependency says what to install and fails; with it, it
 * serves (the server tests cover that).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { EXIT_FAILURE } from '../../src/cli/command.js';
import { LANGUAGE_SERVER_PACKAGE, lspCommandWith, MISSING_LANGUAGE_SERVER_MESSAGE } from '../../src/cli/commands/lsp.js';
import { main } from '../../src/cli/main.js';
import { REPO_ROOT } from '../cli/run-cli.js';

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t), cwd: process.cwd() } };
}

/** The error Node raises for an import of a package that is not installed. */
function missingPackageError(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/src/language-server/server.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

test('without vscode-languageserver: what to install, exit 1', async () => {
  const { out, io: cli } = io();
  const command = lspCommandWith(() => Promise.reject(missingPackageError(LANGUAGE_SERVER_PACKAGE)));
  expect(await main(['-lsp', '--stdio'], cli, [command])).toBe(EXIT_FAILURE);
  expect(out.stderr).toBe(MISSING_LANGUAGE_SERVER_MESSAGE);
  expect(out.stderr).toContain('npm install --save-dev vscode-languageserver@10');
  expect(out.stdout).toBe('');
});

test('another missing module is a failure with its own message, not the install hint', async () => {
  const { out, io: cli } = io();
  const command = lspCommandWith(() => Promise.reject(missingPackageError('something-else')));
  expect(await main(['-lsp'], cli, [command])).toBe(EXIT_FAILURE);
  expect(out.stderr).toContain("Cannot find package 'something-else'");
  expect(out.stderr).not.toContain(MISSING_LANGUAGE_SERVER_MESSAGE);
});

test('unknown flags are usage errors', async () => {
  const { out, io: cli } = io();
  const command = lspCommandWith(() => Promise.reject(new Error('not loaded')));
  expect(await main(['-lsp', '--socket=1'], cli, [command])).toBe(2);
  expect(out.stderr).toContain('unknown flag --socket=1');
});

test('only the -lsp command loads the server: the runtime, the plugin and the compiler never import it', () => {
  const importers: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !path.startsWith('src/language-server/')) {
        const text = readFileSync(join(REPO_ROOT, path), 'utf8');
        if (/from '[^']*language-server\/|import\('[^']*language-server\/|vscode-languageserver/.test(text)) importers.push(path);
      }
    }
  };
  visit('src');
  visit('runtime');
  expect(importers).toEqual(['src/cli/commands/lsp.ts']);
});
