/**
 * `unplugin-idl-rpc/next` in a Next.js 16 app (test/hosts/next-app) built from the packed package in
 * a fresh folder: a Turbopack build with the type check, `next start` answering a generated client
 * and Chromium, a `next build --webpack`, a broken `.idl` in the build output, and `next dev`
 * picking up an edited `.idl`. The rest of the matrix (webpack start and dev, the overlay) is in
 * next-matrix.hosts-test.ts, run by `npm run test:hosts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { useFreshApp } from './fresh-app.js';
import { BROKEN_IDL, callWithGeneratedClient, GREETER_ANSWERS } from './greeter-fixture.js';
import { nextBuild, startNext } from './next-app-runner.js';
import { editDeclaredErrorCode, expectIdlErrorReport } from './next-fixture.js';

const missingChromium = chromiumMissing();
const app = useFreshApp('next-app');

describe('Next.js with Turbopack', () => {
  it('builds (type check included), writes the .d.ts and openapi.json, and next start answers the generated client and the browser', async (context) => {
    const build = await nextBuild(app.dir, 'turbopack');
    expect(build.output).toContain('Turbopack');
    expect(build.ok, build.output).toBe(true);
    expect(build.output).toContain('Finished TypeScript');
    expect(readFileSync(path.join(app.dir, 'greeter.idl.d.ts'), 'utf8')).toContain('GreeterServiceClient');
    const openapi = JSON.parse(readFileSync(path.join(app.dir, '.next', 'openapi.json'), 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain('/GreeterService/greet');

    const server = await startNext(app.dir, 'start');
    try {
      expect(await callWithGeneratedClient(app.dir, server.url)).toEqual(GREETER_ANSWERS);
      const page = await (await fetch(server.url)).text();
      expect(page).toContain('Hello, server!'); // the server component called the handler directly
      if (missingChromium) return context.skip(missingChromium);
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        await tab.goto(server.url);
        await tab.waitForFunction(() => document.querySelector('#client')?.textContent === 'Hello, browser!', null, { timeout: 30_000 });
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('fails the build on a broken .idl with its file, line, column and frame', async () => {
    const good = readFileSync(path.join(app.dir, 'greeter.idl'), 'utf8');
    app.write('greeter.idl', BROKEN_IDL);
    try {
      const build = await nextBuild(app.dir, 'turbopack');
      expect(build.ok).toBe(false);
      expectIdlErrorReport(build.output, app.dir);
    } finally {
      app.write('greeter.idl', good);
    }
  }, 300_000);

  it('next dev picks up an edited .idl', async () => {
    const server = await startNext(app.dir, 'dev');
    try {
      expect((await callWithGeneratedClient(app.dir, server.url)).declaredError).toEqual({ name: 'NameTooLongError', code: 1001 });
      editDeclaredErrorCode(app, 1001, 1002);
      await expect
        .poll(async () => (await callWithGeneratedClient(app.dir, server.url)).declaredError, { timeout: 60_000, interval: 1_000 })
        .toEqual({
          name: 'NameTooLongError',
          code: 1002,
        });
    } finally {
      await server.stop();
      editDeclaredErrorCode(app, 1002, 1001);
    }
  }, 300_000);
});

describe('Next.js with webpack', () => {
  it('next build --webpack builds (type check included) and writes openapi.json', async () => {
    const build = await nextBuild(app.dir, 'webpack');
    expect(build.ok, build.output).toBe(true);
    expect(build.output).not.toContain('Turbopack');
    expect(build.output).toContain('Finished TypeScript');
    expect(existsSync(path.join(app.dir, '.next', 'openapi.json'))).toBe(true);
  }, 300_000);
});
