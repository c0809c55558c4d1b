/**
 * One client of the streams suite, in its own process: each library's client reads only its own
 * server, so no client's garbage or warm-up falls on another's run (oRPC's client makes about three
 * times the garbage per item of the others). Usage: node streams-client-process.mjs <kind> <url>,
 * kind `bare`, `orpc` or `ours`. Prints `{"ready":true}` on one line, then answers messages from the
 * parent: `{ run: { count, intervalMs, latencies } }` streams that many items and replies with the time,
 * this process's CPU time and the latency figures (with `latencies`, every item's); `{ sample: n }` replies with the first n items.
 */
import { postForEvents } from '../lib/sse-reader.mjs';
import { quantile } from '../lib/stats.mjs';
import { nowMs } from '../lib/stream-items.mjs';

const [kind, url] = process.argv.slice(2);

/**
 * The clients: `open(count, intervalMs)` gives the items as an async iterable, the way that
 * library's users read a stream.
 */
const clients = {
  // A hand-written reader: fetch, the SSE events, JSON.parse of each event's data.
  bare: async () => ({
    async *open(count, intervalMs) {
      for await (const event of postForEvents(url, { count, intervalMs })) yield JSON.parse(event.data);
    },
  }),
  // oRPC's client over its fetch link; the call resolves to the event iterator.
  orpc: async () => {
    const { createORPCClient } = await import('@orpc/client');
    const { RPCLink } = await import('@orpc/client/fetch');
    const client = createORPCClient(new RPCLink({ url: url.replace(/\/orders$/, '') }));
    return {
      async *open(count, intervalMs) {
        yield* await client.orders({ count, intervalMs });
      },
    };
  },
  // The generated StreamBenchClient over HttpTransport: the RpcStream a user loops over (reconnection on, as by default).
  ours: async () => {
    const { importGeneratedIdl, importBuilt } = await import('../lib/ours.mjs');
    const { streamBenchIdl } = await import('../lib/stream-items.mjs');
    // Its own cache file: the server process writes the server's at the same time.
    const module = await importGeneratedIdl('streambench-client', streamBenchIdl);
    const { HttpTransport } = await importBuilt('runtime/client.js');
    const client = new module.StreamBenchClient(new HttpTransport(url));
    return { open: (count, intervalMs) => client.orders(count, intervalMs) };
  },
};

function cpuTime() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Streams `count` items: seconds, CPU time (us) and latency quantiles (ms, yield -> loop body), and
 * with `keepLatencies` every item's latency.
 */
async function run(client, count, intervalMs, keepLatencies) {
  const latencies = new Float64Array(count);
  let received = 0;
  const cpuBefore = cpuTime();
  const start = performance.now();
  for await (const item of client.open(count, intervalMs)) {
    latencies[received] = nowMs() - item.sentAt;
    received++;
    if (item.sequence !== received) throw new Error(`${kind}: item ${item.sequence} arrived as number ${received}`);
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuTime() - cpuBefore;
  if (received !== count) throw new Error(`${kind}: ${received} of ${count} items arrived`);
  const result = { seconds, cpu, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  // Every item's latency, for the parent to pool over rounds (latency runs only: bursts are long).
  return keepLatencies ? { ...result, latencies: [...latencies] } : result;
}

async function sample(client, count) {
  const items = [];
  for await (const item of client.open(count, 0)) items.push(item);
  return items;
}

if (!clients[kind]) {
  console.error(`unknown client kind "${kind}"; expected one of ${Object.keys(clients).join(', ')}`);
  process.exit(2);
}
const client = await clients[kind]();
process.on('message', async (message) => {
  try {
    if (message.run) process.send({ result: await run(client, message.run.count, message.run.intervalMs, message.run.latencies) });
    else if (message.sample) process.send({ result: await sample(client, message.sample) });
  } catch (error) {
    process.send({ error: error instanceof Error ? error.stack : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
console.log(JSON.stringify({ ready: true }));
