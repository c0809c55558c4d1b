/**
 * Runs a built fixture bundle in this Node process, as a browser would run it: the bundle puts
 * `idlRpcApp` on the global object; the test takes it from there.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { BuildResult } from './bundlers.js';

export interface FixtureApp {
  runOrders(baseAddress: string): Promise<{
    status?: string;
    total?: number;
    createdAt?: number;
    declaredError?: { name: string; code: number; message: string };
  }>;
}

/** Loads a bundle and hands back the app it registered (by default the fixture app's shape). */
export async function loadBundle<App = FixtureApp>(build: BuildResult): Promise<App> {
  const global = globalThis as { idlRpcApp?: App };
  delete global.idlRpcApp;
  if (build.format === 'esm') {
    // A query makes every load a new module instance, even for a file loaded before.
    await import(`${pathToFileURL(build.bundleFile).href}?run=${Date.now()}`);
  } else {
    vm.runInThisContext(await readFile(build.bundleFile, 'utf8'), { filename: build.bundleFile });
  }
  const app = global.idlRpcApp;
  delete global.idlRpcApp;
  if (!app) throw new Error(`${build.bundleFile} did not register idlRpcApp`);
  return app;
}
