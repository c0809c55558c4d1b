/**
 * The API reference page of the Vite dev server in a project without `swagger-ui-dist` (Chromium):
 * the console and the IDL view work, the reference says what to install, and nothing of the
 * viewer is asked for. Installed while the server runs, the viewer shows on the next reload, no
 * restart. The project is in the system's temporary folder, away from this repository's
 * node_modules (which has the viewer).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { viewerFolder } from '../../runtime/docs-page/page-files.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startViteDevServer } from './harness/vite-dev.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const IDL = `namespace library

struct Book {
    title  string
}

interface LibraryService {
    listBooks() []Book
}
`;

const missing = chromiumMissing();
const repository = fileURLToPath(new URL('../../', import.meta.url));
let project: string;
let server: ViteDevServer | undefined;
let browser: Browser | undefined;
let base: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'idlrpc-docs-no-viewer-'));
  await mkdir(path.join(project, 'server'));
  await writeFile(path.join(project, 'package.json'), '{ "name": "no-viewer", "private": true, "type": "module" }\n');
  await writeFile(path.join(project, 'library.idl'), IDL);
  await writeFile(path.join(project, 'server/handlers.js'), "export const LibraryService = { listBooks: () => [{ title: 'Dune' }] };\n");
  if (missing) return;
  ({ server, base } = await startViteDevServer(project, { server: { idl: 'library.idl', handlers: 'server/handlers.js' } }));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(project, { recursive: true, force: true });
});

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });
const textOf = async (page: Page, testId: string) => (await page.locator(`[data-testid="${testId}"]`).textContent()) ?? '';

test('without swagger-ui-dist the console and the IDL work and the reference says what to install; installed, it shows on reload', async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await page.goto(`${base}/__idl/docs`);
    await poll(() =>
      page.locator('[data-testid="method"]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-method'))),
    ).toEqual(['LibraryService.listBooks']);
    await page.locator('[data-testid="method"][data-method="LibraryService.listBooks"]').click();
    await page.locator('[data-testid="send"]').click();
    await poll(() => textOf(page, 'outcome')).toMatch(/^Result: /);
    expect(await textOf(page, 'idl-text')).toBe(IDL);
    expect(await textOf(page, 'reference')).toContain('npm install swagger-ui-dist');
    expect(requested.filter((pathname) => pathname.includes('/viewer/'))).toEqual([]);

    // Installed while the server runs: the next reload shows the reference.
    await mkdir(path.join(project, 'node_modules'), { recursive: true });
    await symlink(viewerFolder(repository)!, path.join(project, 'node_modules', 'swagger-ui-dist'), 'dir');
    await page.reload();
    await poll(() => page.locator('#reference .opblock').count()).toBe(1);
    expect(await textOf(page, 'reference')).not.toContain('npm install swagger-ui-dist');
    await poll(() => page.locator('[data-testid="method"]').count()).toBe(1);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
