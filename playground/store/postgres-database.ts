import type { PoolClient } from 'pg';
import { listenOnPostgres } from './postgres-listener.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

function executorOf(client: { query: PoolClient['query'] }): SqlExecutor {
  return {
    async query<Row extends object>(text: string, params?: readonly unknown[]) {
      return (await client.query(text, params as unknown[] | undefined)).rows as Row[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

/**
 * A PostgreSQL server through `pg`'s connection pool: what several server processes share.
 * Fails at once, with the server's reason, when the server cannot be reached.
 */
export async function openPostgresDatabase(connectionString: string, maxConnections = 10): Promise<SqlDatabase> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // A connection that breaks while idle in the pool must not bring the server down; the next query reconnects.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw new Error(`Cannot reach PostgreSQL at ${redactedUrl(connectionString)}: ${(error as Error).message}`);
  }
  // The listening connections (each outside the pool), ended with the pool.
  const listening = new Set<() => Promise<void>>();
  return {
    kind: 'server',
    ...executorOf(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(executorOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection whose rollback failed is in an unknown state: the pool drops it.
        client.release(broken);
      }
    },
    async listen(channel, handler) {
      const stop = await listenOnPostgres(pg.Client, connectionString, channel, handler);
      listening.add(stop);
      return () => {
        listening.delete(stop);
        return stop();
      };
    },
    async close() {
      await Promise.all([...listening].map((stop) => stop()));
      listening.clear();
      await pool.end();
    },
  };
}

/** The URL without its password, for messages. */
export function redactedUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return '(an invalid DATABASE_URL)';
  }
}
