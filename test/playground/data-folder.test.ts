/**
 * The PGlite data folder: opened once per process however often Vite reloads the handlers, locked
 * against a second process with a clear error, and taken over when the process that held it died.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { CheckoutHandlers } from '../../playground/checkout.idl';
import { DataFolderInUseError, lockDataFolder, lockFileName } from '../../playground/store/data-folder-lock.js';
import { sharedStore, storeLocationFromEnv } from '../../playground/store/open-store.js';
import { openPgliteDatabase, pgliteFolderName } from '../../playground/store/pglite-database.js';
import { playgroundModules } from './harness.js';

let dataDir = '';
/** A data folder PGlite has been opened in once: creating one takes seconds, copying it a moment. */
let template = '';

beforeAll(async () => {
  template = await mkdtemp(path.join(tmpdir(), 'playground-data-template-'));
  await (await openPgliteDatabase(template)).close();
}, 60_000);

afterAll(async () => {
  if (template) await rm(template, { recursive: true, force: true });
});

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'playground-data-folder-'));
  await cp(template, dataDir, { recursive: true });
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A live process that is not this one, and the way to end it. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  return {
    pid: child.pid!,
    end: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

it('refuses a folder another live process holds, naming it, and takes it over once that process is dead', async () => {
  const holder = otherProcess();
  await writeFile(path.join(dataDir, lockFileName), `${holder.pid}\n`);
  try {
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUseError);
    expect(() => lockDataFolder(dataDir)).toThrow(
      `The playground data folder ${dataDir} is in use by process ${holder.pid} (another \`npm run playground\` or \`npm run playground:server\`?).`,
    );
  } finally {
    await holder.end();
  }

  const release = lockDataFolder(dataDir);
  expect(await readFile(path.join(dataDir, lockFileName), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
  // Held by this process now: a second open in this process is refused too (sharedStore prevents it).
  expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUseError);
  release();
  expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
});

it('opens a folder whose last user was killed: a stale lock and postmaster.pid are recovered, the data is there', async () => {
  const first = await openPgliteDatabase(dataDir);
  await first.exec('CREATE TABLE kept (n integer); INSERT INTO kept VALUES (42);');
  await first.close();
  // What a SIGKILL leaves behind: a lock naming a dead process and PostgreSQL's own pid file.
  const dead = otherProcess();
  await dead.end();
  await writeFile(path.join(dataDir, lockFileName), `${dead.pid}\n`);
  await writeFile(path.join(dataDir, pgliteFolderName, 'postmaster.pid'), `${dead.pid}\n${dataDir}\n`);

  const second = await openPgliteDatabase(dataDir);
  try {
    expect(await second.query('SELECT n FROM kept')).toEqual([{ n: 42 }]);
  } finally {
    await second.close();
  }
}, 60_000);

it("keeps one store across Vite's reloads of the handler module: carts stay, PGlite is opened once", async () => {
  process.env.PLAYGROUND_DATA_DIR = dataDir;
  const modules = await playgroundModules();
  try {
    const first = (await modules.load<{ default: CheckoutHandlers }>('/service/handlers.ts')).default;
    const cart = await first.CartService.addToCart({ cartId: 'kept', productId: 'mug', quantity: 2 });

    // What an edit of a service file or of checkout.idl does: every module is loaded afresh.
    modules.vite.environments.ssr.moduleGraph.invalidateAll();
    (modules.vite.environments.ssr as unknown as { runner: { clearCache(): void } }).runner.clearCache();
    const second = (await modules.load<{ default: CheckoutHandlers }>('/service/handlers.ts')).default;

    expect(second).not.toBe(first);
    expect(await second.CartService.getCart('kept')).toEqual(cart);
  } finally {
    await modules.close();
    process.env.PLAYGROUND_DATA_DIR = ':memory:';
    // The handler module's store belongs to this process's registry: close it to release the folder.
    await (await sharedStore(storeLocationFromEnv({ PLAYGROUND_DATA_DIR: dataDir }, dataDir))).close();
  }
  expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
}, 60_000);
