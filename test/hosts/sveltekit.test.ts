/**
 * SvelteKit 2 (Vite 8, adapter-node) with `unplugin-idl-rpc/vite`, built from the packed package in
 * a fresh folder (test/hosts/sveltekit-app): the RPC endpoint as a server route, a page that calls it
 * during SSR and in the browser (Chromium), a generated client answered with a declared error, and
 * a broken `.idl` in the build output.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { useFreshApp } from './fresh-app.js';
import { BROKEN_IDL, callWithGeneratedClient, GREETER_ANSWERS } from './greeter-fixture.js';
import { startSvelteKit, svelteKitBuild } from './sveltekit-app-runner.js';

const missingChromium = chromiumMissing();
const IDL = path.join('src', 'lib', 'greeter.idl');
const app = useFreshApp('sveltekit-app');

describe('SvelteKit', () => {
  it('builds, serves openapi.json, answers the generated client, and the page calls the route during SSR and in Chromium', async (context) => {
    const build = await svelteKitBuild(app.dir);
    expect(build.ok, build.output).toBe(true);
    expect(existsSync(path.join(app.dir, 'src', 'lib', 'greeter.idl.d.ts'))).toBe(true);
    const server = await startSvelteKit(app.dir);
    try {
      expect(await callWithGeneratedClient(app.dir, server.url, IDL)).toEqual(GREETER_ANSWERS);
      const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(openapi.paths)).toContain('/GreeterService/greet');
      const page = await (await fetch(server.url)).text();
      expect(page).toContain('<p id="ssr">Hello, ssr!</p>'); // the load function called the route during SSR
      if (missingChromium) return context.skip(missingChromium);
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        await tab.goto(server.url);
        await tab.waitForFunction(() => document.querySelector('#browser')?.textContent === 'Hello, browser!', null, { timeout: 30_000 });
        expect(await tab.textContent('#ssr')).toBe('Hello, ssr!');
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('fails the build on a broken .idl with its file, line, column and frame', async () => {
    const good = readFileSync(path.join(app.dir, IDL), 'utf8');
    app.write(IDL, BROKEN_IDL);
    try {
      const build = await svelteKitBuild(app.dir);
      expect(build.ok).toBe(false);
      expect(build.output).toContain(`${path.join(app.dir, IDL)}:4:5`);
      expect(build.output).toContain('expected an error code');
      expect(build.output).toMatch(/4 \|\s+NameTooLong "no code"/); // the frame's source line
      expect(build.output).toMatch(/\|\s+\^{11}/); // and its marker
    } finally {
      app.write(IDL, good);
    }
  }, 300_000);
});
