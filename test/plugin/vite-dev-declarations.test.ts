/**
 * The `.idl.d.ts` in the Vite dev server: written once the file has held still (the page does not
 * wait for the editor's file), one write at a time per file so that the last edit's
 * declarations are the ones on disk, and all of them by the time the server closes. A `.d.ts`
 * that cannot be written is said on the server's log; the module is served all the same.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ViteDevServer } from 'vite';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let running: ViteDevServer | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function devServer(folder: string) {
  const app = await copyFixtureApp(folder);
  const started = await startViteDevServer(app);
  running = started.server;
  return { app, ...started };
}

/** `idl` with a struct named `name` appended. */
function withStruct(idl: string, name: string): string {
  return `${idl}\nstruct ${name} {\n    at  int\n}\n`;
}

describe('vite dev server: the .idl.d.ts', () => {
  test('follows a run of edits: the last edit is what is on disk, at the latest once the server has closed', async () => {
    const { app, server, base } = await devServer('vite-dev-declarations-edits');
    const idlFile = path.join(app, 'checkout.idl');
    const dtsFile = `${idlFile}.d.ts`;
    const original = readFileSync(idlFile, 'utf8');
    expect((await fetch(`${base}/checkout.idl?import`)).status).toBe(200);
    await expect.poll(() => readFileSync(dtsFile, 'utf8'), { timeout: 10_000 }).toContain('CartServiceClient');
    for (const name of ['EditedFirst', 'EditedSecond', 'EditedThird']) {
      // Vite's file watcher drops a change that comes a few milliseconds after the one before it
      // was handled (no editor saves that fast); a pause keeps every edit seen.
      await new Promise((resolve) => setTimeout(resolve, 100));
      writeFileSync(idlFile, withStruct(original, name));
      await expect.poll(async () => (await fetch(`${base}/checkout.idl?import`)).text(), { timeout: 30_000 }).toContain(name);
    }
    await server.close();
    running = undefined;
    const dts = readFileSync(dtsFile, 'utf8');
    expect(dts).toContain('EditedThird');
    expect(dts).not.toContain('EditedSecond');
    expect(readFileSync(`${dtsFile}.map`, 'utf8')).toContain('checkout.idl');
  });

  test('that cannot be written is said on the log, and the module is served all the same', async () => {
    const { app, server, base } = await devServer('vite-dev-declarations-unwritable');
    // A folder where the declarations would go: every write of the file fails.
    mkdirSync(path.join(app, 'checkout.idl.d.ts'));
    const warned: string[] = [];
    vi.spyOn(server.config.logger, 'warn').mockImplementation((message) => void warned.push(message));
    const response = await fetch(`${base}/checkout.idl?import`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('class CartServiceClient');
    await expect.poll(() => warned.join('\n'), { timeout: 10_000 }).toContain(`${path.join(app, 'checkout.idl.d.ts')} not written`);
  });
});
