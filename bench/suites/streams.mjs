/**
 * Streams: the same Order-like items streamed over one HTTP response by a bare `node:http` SSE loop,
 * by oRPC's event iterator and by our stream method, each server in its own child process, each read
 * by its own client in this process. Per server and round: a burst of `count` items as fast as the
 * client reads them (items/s, server and client CPU time per item), then `latencyCount` items 1 ms
 * apart (time from the handler's yield to the client's loop body, p50 and p99). Rounds are
 * interleaved (every round visits every server, in a rotating order); the table gives medians over
 * rounds, as ratios to the bare loop and to oRPC.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pairedRow } from '../lib/paired-row.mjs';
import { postForEvents } from '../lib/sse-reader.mjs';
import { median, quantile } from '../lib/stats.mjs';
import { nowMs } from '../lib/stream-items.mjs';

const serverProcess = fileURLToPath(new URL('./streams-process.mjs', import.meta.url));
const kinds = ['ours', 'bare', 'orpc'];
const peers = [
  { kind: 'bare', label: 'bare node:http SSE loop' },
  { kind: 'orpc', label: 'oRPC 1.16.1 event iterator' },
];
/** Milliseconds between items in the latency runs: the pipeline is idle when each item is yielded. */
const latencyIntervalMs = 1;

/** Starts one server child process; resolves with its URL and a stop function. */
async function startServer(kind) {
  const child = spawn(process.execPath, [serverProcess, kind], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const lines = createInterface({ input: child.stdout });
  const ready = new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${kind} stream server exited with code ${code} before listening`)));
  });
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`${kind} stream server did not start in 30 s`)), 30_000).unref(),
  );
  let info;
  try {
    info = await Promise.race([ready, timeout]);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  return { kind, url: `http://127.0.0.1:${info.port}${info.path}`, child, stop };
}

/** CPU time (user + system, in microseconds) the server process has used so far. */
async function serverCpuTime(server) {
  const answer = once(server.child, 'message');
  server.child.send('cpu-usage');
  const [{ user, system }] = await answer;
  return user + system;
}

function ownCpuTime() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * The clients, one per server kind: `open(count, intervalMs)` gives the items as an async iterable,
 * the way that library's users read a stream.
 */
async function createClients(servers) {
  const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
  const { createORPCClient } = await import('@orpc/client');
  const { RPCLink } = await import('@orpc/client/fetch');
  const orpc = createORPCClient(new RPCLink({ url: byKind.orpc.url.replace(/\/orders$/, '') }));
  return {
    // A hand-written reader: fetch, the SSE events, JSON.parse of each event's data.
    bare: {
      async *open(count, intervalMs) {
        for await (const event of postForEvents(byKind.bare.url, { count, intervalMs })) yield JSON.parse(event.data);
      },
    },
    orpc: { open: (count, intervalMs) => iterateLater(() => orpc.orders({ count, intervalMs })) },
    ours: await createOurClient(byKind.ours.url),
  };
}

/** An async iterable over the iterator that `start()` resolves to (oRPC's call answers with one). */
function iterateLater(start) {
  return {
    async *[Symbol.asyncIterator]() {
      yield* await start();
    },
  };
}

/**
 * Our client: until the client runtime can read streams, the generic reader over our wire (each
 * `rpc.stream.item` notification's item, up to the response that ends the stream).
 */
async function createOurClient(url) {
  let id = 0;
  return {
    async *open(count, intervalMs) {
      const call = { jsonrpc: '2.0', method: 'StreamBench.orders', params: [count, intervalMs], id: ++id };
      for await (const event of postForEvents(url, call)) {
        const message = JSON.parse(event.data);
        if (message.method === 'rpc.stream.item') yield message.params.item;
        else if ('error' in message) throw new Error(`the stream ended with an error: ${event.data}`);
        else if ('result' in message) return;
      }
      throw new Error('the stream ended without its final response');
    },
  };
}

/**
 * Streams `count` items from one server through its client. Gives items/s, server and client CPU
 * time per item (us) and each item's latency (ms, yield -> loop body).
 */
async function streamOnce(server, client, count, intervalMs) {
  const latencies = new Float64Array(count);
  let received = 0;
  const serverBefore = await serverCpuTime(server);
  const clientBefore = ownCpuTime();
  const start = performance.now();
  for await (const item of client.open(count, intervalMs)) {
    latencies[received] = nowMs() - item.sentAt;
    received++;
    if (item.sequence !== received) throw new Error(`${server.kind}: item ${item.sequence} arrived as number ${received}`);
  }
  const seconds = (performance.now() - start) / 1000;
  const clientCpu = ownCpuTime() - clientBefore;
  const serverCpu = (await serverCpuTime(server)) - serverBefore;
  if (received !== count) throw new Error(`${server.kind}: ${received} of ${count} items arrived`);
  return { itemsPerSecond: count / seconds, serverCpu: serverCpu / count, clientCpu: clientCpu / count, latencies };
}

/** Every client must read the same items from its server (the moment each was made aside). */
async function checkSameItems(servers, clients) {
  const texts = [];
  for (const server of servers) {
    const items = [];
    for await (const item of clients[server.kind].open(3, 0)) items.push(JSON.stringify({ ...item, sentAt: 0 }));
    texts.push(items.join('\n'));
  }
  for (let i = 1; i < servers.length; i++) {
    if (texts[i] !== texts[0]) throw new Error(`${servers[i].kind} streams other items than ${servers[0].kind}:\n${texts[i]}\n${texts[0]}`);
  }
}

/**
 * Runs the suite and returns table rows. `options`: `rounds`, `count` (items per burst),
 * `latencyCount` (items per latency run), `warmupCount` (items streamed once per server before the
 * first round).
 */
export async function runStreamsSuite(options) {
  const servers = [];
  try {
    for (const kind of kinds) servers.push(await startServer(kind));
    const clients = await createClients(servers);
    await checkSameItems(servers, clients);
    for (const server of servers) await streamOnce(server, clients[server.kind], options.warmupCount, 0);
    const samples = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (let i = 0; i < servers.length; i++) {
        const server = servers[(i + round) % servers.length];
        const burst = await streamOnce(server, clients[server.kind], options.count, 0);
        const paced = await streamOnce(server, clients[server.kind], options.latencyCount, latencyIntervalMs);
        samples[server.kind].push({
          itemsPerSecond: burst.itemsPerSecond,
          serverCpu: burst.serverCpu,
          clientCpu: burst.clientCpu,
          p50: quantile(paced.latencies, 0.5),
          p99: quantile(paced.latencies, 0.99),
          burstP50: quantile(burst.latencies, 0.5),
        });
      }
    }
    return { rows: streamRows(samples, options), info: streamInfo(samples, options) };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

const items = (n) => n.toLocaleString('en-US');

function streamRows(samples, options) {
  const what = `${items(options.count)} Order items over one SSE response`;
  const measures = [
    ['itemsPerSecond', `streams: ${what}, throughput`, 'items/s', true],
    ['serverCpu', `streams: ${what}, server CPU time per item`, 'us', false],
    ['clientCpu', `streams: ${what}, client CPU time per item (each library's own client)`, 'us', false],
    ['p50', `streams: items ${latencyIntervalMs} ms apart, p50 latency from the handler's yield to the client's loop body`, 'ms', false],
    ['p99', `streams: items ${latencyIntervalMs} ms apart, p99 latency from the handler's yield to the client's loop body`, 'ms', false],
  ];
  const rows = [];
  for (const [field, metric, unit, higherIsBetter] of measures) {
    for (const peer of peers) {
      const { row } = pairedRow({
        group: 'streams',
        metric,
        unit,
        peerName: peer.label,
        ours: samples.ours.map((s) => s[field]),
        peer: samples[peer.kind].map((s) => s[field]),
        higherIsBetter,
      });
      rows.push(row);
    }
  }
  return rows;
}

/** oRPC against the bare loop too (the table holds ours against each), and the settings. */
function streamInfo(samples, options) {
  const figure = (kind, field) => median(samples[kind].map((s) => s[field]));
  const fields = ['itemsPerSecond', 'serverCpu', 'clientCpu', 'p50', 'p99', 'burstP50'];
  return {
    settings: { ...options, latencyIntervalMs },
    medians: Object.fromEntries(kinds.map((kind) => [kind, Object.fromEntries(fields.map((f) => [f, figure(kind, f)]))])),
    ratiosToBare: Object.fromEntries(
      ['ours', 'orpc'].map((kind) => [kind, Object.fromEntries(fields.map((f) => [f, figure(kind, f) / figure('bare', f)]))]),
    ),
  };
}
