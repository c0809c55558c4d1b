/**
 * A generated client's stream method (codegen's `streamMethod` call) against the generated server
 * factory: items with a `timestamp` arrive as `Date`s (and the `timestamp` param is sent as its
 * wire string), the declared error is the generated class, and `lastEventId` resumes. Imports the
 * generated module from inside the package, so its runtime imports resolve to dist/ (`npm run build`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RpcContext } from '../../runtime/server.js';
import { generateModule } from '../../src/codegen/module.js';
import { compileIdl } from '../../src/idl/compile.js';
import { streamFront } from './stream-front.js';

const idlSource = `namespace tracking

struct Event {
    n int
    at timestamp
}

errors {
    1301 TooEarly "the start is in the future"
}

interface Tracking {
    watch(since timestamp, count int) stream Event raises(TooEarly)
}
`;

interface Event {
  n: number;
  at: Date;
}
type Stream = AsyncIterable<Event> & { readonly lastEventId: string | undefined };
interface TrackingModule {
  TrackingClient: new (transport: unknown) => { watch(since: Date, count: number, options?: { lastEventId?: string }): Stream };
  TooEarlyError: new (...args: unknown[]) => Error;
  createTrackingServer(handlers: object, options?: object): Parameters<typeof streamFront>[0];
}
interface ClientModule {
  HttpTransport: new (url: string) => unknown;
}

let generated: TrackingModule;
let client: ClientModule;

beforeAll(async () => {
  const { js } = generateModule(compileIdl(idlSource, 'tracking.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime/core',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'tracking.idl',
  });
  const folder = path.join(import.meta.dirname, '../../test-output/client-streams');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'tracking.idl.mjs');
  writeFileSync(file, js);
  generated = (await import(pathToFileURL(file).href)) as TrackingModule;
  // The runtime the generated module imports (dist/), so its error classes are the same.
  client = (await import(pathToFileURL(path.join(folder, '../../dist/runtime/client.js')).href)) as ClientModule;
});

describe('a generated stream method', () => {
  it('converts timestamps both ways, resumes from lastEventId, and throws the generated declared error', async () => {
    const seen: { since: unknown; lastEventId: string | undefined }[] = [];
    const server = generated.createTrackingServer({
      Tracking: {
        async *watch(since: Date, count: number, ctx: RpcContext) {
          seen.push({ since, lastEventId: ctx.lastEventId });
          if (since.getTime() > Date.now()) throw new generated.TooEarlyError();
          for (let n = Number(ctx.lastEventId ?? 0) + 1; n <= count; n++) yield { n, at: new Date(since.getTime() + n * 1000) };
        },
      },
    });
    const rpc = await streamFront(server);
    const tracking = new generated.TrackingClient(new client.HttpTransport(rpc.url));
    const since = new Date('2026-01-01T00:00:00.000Z');

    const stream = tracking.watch(since, 3);
    const events: Event[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.n)).toStrictEqual([1, 2, 3]);
    expect(events.every((event) => event.at instanceof Date)).toBe(true);
    expect(events[2].at.toISOString()).toBe('2026-01-01T00:00:03.000Z');
    expect(stream.lastEventId).toBe('3');
    expect(seen[0].since).toStrictEqual(since); // the server's conversion made the wire string a Date again

    const resumed: number[] = [];
    for await (const event of tracking.watch(since, 5, { lastEventId: '3' })) resumed.push(event.n);
    expect(resumed).toStrictEqual([4, 5]);
    expect(seen[1].lastEventId).toBe('3');

    const error = await (async () => {
      for await (const _ of tracking.watch(new Date(Date.now() + 3_600_000), 1));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(generated.TooEarlyError);
  });
});
