/**
 * A PostgreSQL server for tests: `TEST_DATABASE_URL` names it (a user that may create databases,
 * as `.ci/run` sets up). Each test file works in a scratch database of its own, dropped at the end.
 * Outside CI a test without a reachable server skips with the reason; in CI (`CI` set) it fails.
 */
import pg from 'pg';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** Why PostgreSQL tests cannot run here, or undefined when they can; throws in CI when the server is missing. */
export async function postgresMissing(): Promise<string | undefined> {
  let reason: string | undefined;
  if (testDatabaseUrl === undefined) {
    reason = 'TEST_DATABASE_URL is not set (a PostgreSQL server; .ci/run shows how to start one)';
  } else {
    const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
    } catch (error) {
      reason = `PostgreSQL at TEST_DATABASE_URL is unreachable: ${(error as Error).message}`;
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (reason !== undefined && process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

/** A database created for one test file, and the way to drop it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a unique name on the TEST_DATABASE_URL server. */
export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  if (testDatabaseUrl === undefined) throw new Error('scratchDatabase: TEST_DATABASE_URL is not set');
  const name = `checkout_${label}_${process.pid}_${Date.now().toString(36)}`.replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
