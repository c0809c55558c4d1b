/**
 * A fresh app folder built from a fixture template, with the packed package installed as a user's
 * project would install it (`npm install` of the tarball, offline from npm's cache after the
 * repository's own install), but without downloading the frameworks again: the folder lives under
 * test/hosts/.apps/, so Node's resolution finds next, react, SvelteKit and the TypeScript 6 of the
 * test/hosts workspace (and Vite in the root) one and two levels up, exactly as they are installed.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from '../cli/run-cli.js';
import { packPackage } from '../package/pack.js';

const run = promisify(execFile);

/** Where the fresh apps are made (git ignores it). */
export const APPS_FOLDER = path.join(REPO_ROOT, 'test', 'hosts', '.apps');

/** The package's tarball, packed once per test file. */
let tarball: Promise<string> | undefined;

function packedTarball(): Promise<string> {
  if (!tarball) {
    mkdirSync(APPS_FOLDER, { recursive: true });
    const folder = mkdtempSync(path.join(APPS_FOLDER, 'tarball-'));
    tarball = packPackage(folder);
  }
  return tarball;
}

export interface FreshApp {
  dir: string;
  /** Writes `text` to a file of the app (relative path). */
  write(file: string, text: string): void;
  remove(): void;
}

/**
 * Copies the template `test/hosts/<template>` into a new folder and installs the packed package
 * there, with `extraPackages` (exact versions, from npm's cache when it has them).
 */
export async function createFreshApp(template: string, extraPackages: readonly string[] = []): Promise<FreshApp> {
  const file = await packedTarball();
  const dir = mkdtempSync(path.join(APPS_FOLDER, `${template}-`));
  cpSync(path.join(REPO_ROOT, 'test', 'hosts', template), dir, { recursive: true });
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', file, ...extraPackages], {
    cwd: dir,
    timeout: 180_000,
  });
  return {
    dir,
    write: (name, text) => writeFileSync(path.join(dir, name), text),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh app of `template` for the test file that calls this (at its top level): made before its
 * tests, removed with the packed tarball after them. Its members are read when a test runs.
 */
export function useFreshApp(template: string): FreshApp {
  let made: FreshApp | undefined;
  beforeAll(async () => {
    made = await createFreshApp(template);
  }, 300_000);
  afterAll(async () => {
    made?.remove();
    await removePackedTarball();
  });
  const current = () => {
    if (!made) throw new Error(`the ${template} app was not made (its beforeAll failed)`);
    return made;
  };
  return {
    get dir() {
      return current().dir;
    },
    write: (file, text) => current().write(file, text),
    remove: () => current().remove(),
  };
}

/** Removes the tarball's folder (call once, after every app of the file is removed). */
export async function removePackedTarball(): Promise<void> {
  if (!tarball) return;
  const file = await tarball;
  tarball = undefined;
  rmSync(path.dirname(file), { recursive: true, force: true });
}
