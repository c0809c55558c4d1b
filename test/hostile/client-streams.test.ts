/**
 * Hostile servers against the client's streams (runtime/streams/), each case in its own child
 * process under a small heap and a hang guard (harness.ts): an event that never ends fails the
 * stream with a clear error instead of filling the client's memory.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

describe('client streams under hostile servers', () => {
  it('a data line that never ends: the stream fails once it passes 16 Mi characters', async () => {
    const run = await runHostileScript(`
      const http = await import('node:http');
      const { HttpTransport, streamMethod } = await import(DIST + 'runtime/client.js');
      const piece = 'x'.repeat(65536);
      const server = http.createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: ');
        const more = () => { while (res.write(piece)); };
        res.on('drain', more);
        more();
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = 'http://127.0.0.1:' + server.address().port + '/';
      let outcome;
      try {
        for await (const item of streamMethod(new HttpTransport(url), 'Feed.items', [], [])) outcome = { item };
      } catch (error) {
        outcome = { code: error.code, message: error.message };
      }
      server.closeAllConnections();
      server.close();
      console.log(JSON.stringify(outcome));
    `);
    expect(run.hung, 'hung').toBe(false);
    expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({
      code: -32000,
      message: 'Transport error: a stream event is longer than 16777216 characters',
    });
  }, 120_000);
});
