import path from 'node:path';
import type { CheckoutStore } from '../service/store.js';
import { inMemory, openPgliteDatabase } from './pglite-database.js';
import { openPostgresDatabase, redactedUrl } from './postgres-database.js';
import { createSqlStore, type SqlStoreOptions } from './sql-store.js';

/** Where the playground keeps its data. */
export interface StoreLocation {
  /** A PostgreSQL server (`postgres://user:password@host:port/database`): shared by every process that names it. */
  databaseUrl?: string;
  /** Otherwise PGlite in this folder (created when missing), or in memory for `:memory:`. */
  dataDir: string;
}

/** The location from the environment: `DATABASE_URL`, else `PLAYGROUND_DATA_DIR`, else `defaultDataDir`. */
export function storeLocationFromEnv(env: NodeJS.ProcessEnv, defaultDataDir: string): StoreLocation {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const dataDir = env.PLAYGROUND_DATA_DIR?.trim() || defaultDataDir;
  return { databaseUrl, dataDir: dataDir === inMemory ? inMemory : path.resolve(dataDir) };
}

/** Says where the data lives, for the start-up line (never the password). */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.databaseUrl !== undefined) return `PostgreSQL at ${redactedUrl(location.databaseUrl)}`;
  if (location.dataDir === inMemory) return 'PGlite in memory (nothing is kept)';
  return `PGlite in ${location.dataDir}`;
}

/** Opens a new SQL store at the location: migrated, with the catalog seeded. */
export async function openStore(location: StoreLocation, options: SqlStoreOptions = {}): Promise<CheckoutStore> {
  const db =
    location.databaseUrl !== undefined ? await openPostgresDatabase(location.databaseUrl) : await openPgliteDatabase(location.dataDir);
  try {
    return await createSqlStore(db, options);
  } catch (error) {
    await db.close();
    throw error;
  }
}

const registryKey = Symbol.for('unplugin-idl-rpc.playground.stores');

/** The stores this process has open, by location; on globalThis, so that every copy of this module sees it. */
function registry(): Map<string, Promise<CheckoutStore>> {
  const global = globalThis as { [registryKey]?: Map<string, Promise<CheckoutStore>> };
  global[registryKey] ??= new Map();
  return global[registryKey];
}

/**
 * The store of this process for a location, opened on the first call. The Vite dev server loads
 * the handler module afresh after every edit (of a handler or of checkout.idl); each fresh copy
 * asks here and gets the same store, so PGlite is opened once per data folder, however many
 * reloads (the options of the first call count). A failed open is forgotten, so that the next call
 * tries again.
 */
export function sharedStore(location: StoreLocation, options: SqlStoreOptions = {}): Promise<CheckoutStore> {
  const key = location.databaseUrl !== undefined ? `url ${location.databaseUrl}` : `dir ${location.dataDir}`;
  const stores = registry();
  let store = stores.get(key);
  if (store === undefined) {
    store = openStore(location, options).then((opened) => {
      const close = opened.close.bind(opened);
      return Object.assign(opened, {
        close: () => {
          stores.delete(key);
          return close();
        },
      });
    });
    stores.set(key, store);
    store.catch(() => stores.delete(key));
  }
  return store;
}
