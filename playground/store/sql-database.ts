/**
 * The little the SQL store needs from a PostgreSQL client, met by PGlite (embedded) and by `pg`
 * (a PostgreSQL server) alike, so that one schema and one set of queries serve both.
 */

/** Runs one statement with `$1`-style parameters and returns its rows. */
export interface SqlExecutor {
  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (a migration). */
  exec(script: string): Promise<void>;
}

export interface SqlDatabase extends SqlExecutor {
  /** `embedded`: PGlite in this process; `server`: a PostgreSQL server, shared by processes. */
  readonly kind: 'embedded' | 'server';
  /**
   * Runs `work` in one transaction (READ COMMITTED, PostgreSQL's default): committed when it
   * resolves, rolled back when it throws, and the error rethrown.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Calls `handler` with the payload of every `NOTIFY` on `channel`, from any connection to the
   * database (PostgreSQL delivers one when the transaction that sent it commits), and with undefined
   * when the listening connection was lost and is back (notifications may have been missed).
   * Resolves once listening, to the function that stops it. `channel` is a lower-case identifier.
   */
  listen(channel: string, handler: (payload: string | undefined) => void): Promise<() => Promise<void>>;
  /** Closes the connections (and, for PGlite, the data folder); the database is unusable afterwards. */
  close(): Promise<void>;
}
