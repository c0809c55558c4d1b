/**
 * Rsbuild (`rsbuild build --watch`'s API) and Farm (`farm watch`'s API) in watch mode on the
 * multi-file fixture app (fixtures/imports: shop.idl imports shared.idl), as imports.test.ts does for
 * the six bundlers: an edit of the imported file alone rebuilds; its breakage shows its own
 * file:line:column in the host's output, and fixing it rebuilds; an edit of the importing file
 * rebuilds too. Each host watches in a process of its own (harness/host-build.mjs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { hostBundleOf } from './harness/hosts.js';
import { loadBundle } from './harness/run-bundle.js';
import { copyFixture, repoRoot } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const WATCHING_HOSTS = ['rsbuild', 'farm'] as const;

/** Waits until `accept` holds; fails with `describe()` after a minute. */
async function until(accept: () => Promise<boolean>, describeState: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await accept()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not as expected within a minute: ${describeState()}`);
}

describe.each(WATCHING_HOSTS)('%s in watch mode', (host) => {
  let app: string;
  let outDir: string;
  let watcher: ChildProcess | undefined;
  let output = '';
  let lastBundle: { text: string; currencies?: string } | undefined;
  const bundleFile = () => hostBundleOf(host, outDir).bundleFile;

  /** The currencies of the bundle on disk now (each new bundle text loaded once), joined by commas. */
  async function currencies(): Promise<string | undefined> {
    try {
      const text = await readFile(bundleFile(), 'utf8');
      if (lastBundle?.text !== text) {
        const app = await loadBundle<{ currencies: string[] }>(hostBundleOf(host, outDir));
        lastBundle = { text, currencies: app.currencies.join(',') };
      }
      return lastBundle.currencies;
    } catch {
      return undefined; // being written
    }
  }
  const state = () => `bundle currencies ${lastBundle?.currencies}; output:\n${output.slice(-3000)}`;

  beforeAll(async () => {
    app = await copyFixture('imports', `hosts/watch-${host}`);
    outDir = path.join(app, 'out');
    watcher = spawn(process.execPath, [path.join(repoRoot, 'test/plugin/harness/host-build.mjs'), host, app, 'merged.js', outDir], {
      cwd: app,
      env: { ...process.env, IDLRPC_WATCH: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    watcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    watcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(() => {
    watcher?.kill();
  });

  test('an edit of the imported file alone rebuilds; its breakage shows its location; fixing it rebuilds', async () => {
    await until(async () => (await currencies()) === 'EUR,USD', state);
    const importedFile = path.join(app, 'shared.idl');
    const original = await readFile(importedFile, 'utf8');

    await writeFile(importedFile, original.replace('    USD\n', '    USD\n    CHF\n'));
    await until(async () => (await currencies()) === 'EUR,USD,CHF', state);

    const lines = original.split('\n');
    const line = lines.findIndex((text) => /^\s+amount\s+int$/.test(text)) + 1;
    lines[line - 1] = lines[line - 1].replace('int', 'innt');
    const column = lines[line - 1].indexOf('innt') + 1;
    const before = output.length;
    await writeFile(importedFile, lines.join('\n'));
    await until(async () => output.slice(before).includes(`shared.idl:${line}:${column}`), state);

    await writeFile(importedFile, original.replace('    USD\n', '    USD\n    GBP\n'));
    await until(async () => (await currencies()) === 'EUR,USD,GBP', state);
  });

  test('an edit of the importing file rebuilds too', async () => {
    const importerFile = path.join(app, 'shop.idl');
    const importer = await readFile(importerFile, 'utf8');
    await writeFile(importerFile, importer.replace(/(raises\([\w.]+\)\n)/, '$1\n    cancelOrder(orderId string) bool\n'));
    await until(async () => (await readFile(bundleFile(), 'utf8').catch(() => '')).includes('OrderService.cancelOrder'), state);
  });
});
