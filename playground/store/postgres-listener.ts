import type pg from 'pg';

/** How long a lost listening connection waits before it connects again. */
const reconnectDelayMs = 1000;

/**
 * LISTEN on `channel` over a connection of its own (a pooled one would be handed to other queries):
 * `handler` gets each notification's payload. When the connection is lost, it connects again every
 * second until it listens again, then calls `handler(undefined)`, since notifications sent in between
 * are gone. Resolves once listening, to the function that stops it.
 */
export async function listenOnPostgres(
  client: typeof pg.Client,
  connectionString: string,
  channel: string,
  handler: (payload: string | undefined) => void,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<pg.Client> => {
    const connection = new client({ connectionString });
    connection.on('notification', (message) => {
      if (message.channel === channel) handler(message.payload ?? '');
    });
    // Without an 'error' listener a broken connection would bring the process down.
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${connection.escapeIdentifier(channel)}`);
    } catch (error) {
      await connection.end().catch(() => {});
      throw error;
    }
    return connection;
  };

  const reconnect = () => {
    retry = setTimeout(() => {
      connect().then(
        (connection) => {
          if (stopped) return void connection.end().catch(() => {});
          current = connection;
          handler(undefined);
        },
        () => reconnect(),
      );
    }, reconnectDelayMs);
    retry.unref();
  };

  const lost = (connection: pg.Client, error?: Error) => {
    if (stopped || connection !== current) return;
    current = undefined;
    console.error(`PostgreSQL LISTEN ${channel}: connection lost${error ? ` (${error.message})` : ''}; connecting again`);
    reconnect();
  };

  current = await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => {});
    current = undefined;
  };
}
