import { rmSync } from 'node:fs';
import path from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { lockDataFolder } from './data-folder-lock.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/** `dataDir` value for a database that lives in memory only (tests). */
export const inMemory = ':memory:';

/** The folder inside the data folder that holds PGlite's PostgreSQL cluster. */
export const pgliteFolderName = 'pglite';

function executorOf(client: PGlite | Transaction): SqlExecutor {
  return {
    async query<Row extends object>(text: string, params?: readonly unknown[]) {
      return (await client.query<Row>(text, params as unknown[] | undefined)).rows;
    },
    async exec(script: string) {
      await client.exec(script);
    },
  };
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly, in this process) over a data folder, or in memory
 * for `:memory:`. The folder is locked for this process (see data-folder-lock.ts); a
 * `postmaster.pid` left in it by a killed process is removed, as no other process can be using it.
 * PGlite runs one statement at a time: its transactions simply take turns.
 */
export async function openPgliteDatabase(dataDir: string): Promise<SqlDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const memory = dataDir === inMemory;
  const release = memory ? () => {} : lockDataFolder(dataDir);
  let pglite: PGlite;
  try {
    const cluster = path.join(dataDir, pgliteFolderName);
    if (!memory) rmSync(path.join(cluster, 'postmaster.pid'), { force: true });
    pglite = new PGlite(memory ? undefined : cluster);
    await pglite.waitReady;
  } catch (error) {
    release();
    throw error;
  }
  const executor = executorOf(pglite);
  return {
    kind: 'embedded',
    ...executor,
    transaction: (work) => pglite.transaction((tx) => work(executorOf(tx))),
    // One connection, which never breaks: PGlite delivers a NOTIFY to this process's own LISTEN.
    async listen(channel, handler) {
      const stop = await pglite.listen(channel, (payload) => handler(payload));
      return () => stop();
    },
    async close() {
      try {
        await pglite.close();
      } finally {
        release();
      }
    },
  };
}
