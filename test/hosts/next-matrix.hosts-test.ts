/**
 * The Next.js matrix beyond CI (`npm run test:hosts`): the webpack build started with `next start`
 * and answering the generated client, `next dev --webpack` picking up an edited `.idl`, and a broken
 * `.idl` reported by the dev server of each bundler.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFreshApp } from './fresh-app.js';
import { BROKEN_IDL, callWithGeneratedClient, GREETER_ANSWERS } from './greeter-fixture.js';
import { type NextBundler, nextBuild, startNext } from './next-app-runner.js';
import { editDeclaredErrorCode, expectIdlErrorReport } from './next-fixture.js';

const app = useFreshApp('next-app');

describe('Next.js with webpack', () => {
  it('next build --webpack, then next start answers the generated client', async () => {
    const build = await nextBuild(app.dir, 'webpack');
    expect(build.ok, build.output).toBe(true);
    const server = await startNext(app.dir, 'start');
    try {
      expect(await callWithGeneratedClient(app.dir, server.url)).toEqual(GREETER_ANSWERS);
      expect(await (await fetch(server.url)).text()).toContain('Hello, server!');
    } finally {
      await server.stop();
    }
  });

  it('next dev --webpack picks up an edited .idl', async () => {
    const server = await startNext(app.dir, 'dev', 'webpack');
    try {
      expect((await callWithGeneratedClient(app.dir, server.url)).declaredError).toEqual({ name: 'NameTooLongError', code: 1001 });
      editDeclaredErrorCode(app, 1001, 1002);
      await expect
        .poll(async () => (await callWithGeneratedClient(app.dir, server.url)).declaredError, { timeout: 60_000, interval: 1_000 })
        .toEqual({ name: 'NameTooLongError', code: 1002 });
    } finally {
      await server.stop();
      editDeclaredErrorCode(app, 1002, 1001);
    }
  });
});

describe.each<NextBundler>(['turbopack', 'webpack'])('next dev (%s) with a broken .idl', (bundler) => {
  it('reports its file, line, column and frame', async () => {
    const good = readFileSync(path.join(app.dir, 'greeter.idl'), 'utf8');
    const server = await startNext(app.dir, 'dev', bundler);
    try {
      app.write('greeter.idl', BROKEN_IDL);
      // Until the dev server's watcher has seen the edit, a request may still get the route built
      // from the good file: ask again until the broken one is reported.
      const post = () => fetch(`${server.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      await expect
        .poll(async () => ((await post()).status === 500 ? server.output() : ''), { timeout: 30_000, interval: 1_000 })
        .toContain('greeter.idl:4:5');
      expectIdlErrorReport(server.output(), app.dir);
    } finally {
      await server.stop();
      app.write('greeter.idl', good);
    }
  });
});
