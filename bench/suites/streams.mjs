/**
 * Streams: the same Order-like items streamed over one HTTP response by a bare `node:http` SSE loop,
 * by oRPC's event iterator and by our stream method. Each server runs in its own child process, and
 * so does each library's client (streams-client-process.mjs): this process only starts runs and
 * reads CPU clocks. Per server and round: a burst of `count` items as fast as the client reads them
 * (items/s, server and client CPU time per item), then `latencyCount` items 1 ms apart (time from
 * the handler's yield to the client's loop body, p50 and p99). Each round visits every server, the
 * rounds going through every order of them; the table gives medians over rounds, ours against the
 * bare loop and against oRPC.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pairedRow } from '../lib/paired-row.mjs';
import { median, quantile } from '../lib/stats.mjs';

const serverProcess = fileURLToPath(new URL('./streams-process.mjs', import.meta.url));
const clientProcess = fileURLToPath(new URL('./streams-client-process.mjs', import.meta.url));
const kinds = ['ours', 'bare', 'orpc'];
const peers = [
  { kind: 'bare', label: 'bare node:http SSE loop' },
  { kind: 'orpc', label: 'oRPC 1.16.1 event iterator' },
];
/** Milliseconds between items in the latency runs: the pipeline is idle when each item is yielded. */
const latencyIntervalMs = 1;

/** Starts `node script ...args` with an IPC channel; resolves with the child and the JSON of its first stdout line. */
async function startChild(label, script, args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const lines = createInterface({ input: child.stdout });
  const ready = new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${label} exited with code ${code} before it was ready`)));
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`${label} was not ready in 30 s`)), 30_000).unref());
  try {
    return { child, info: await Promise.race([ready, timeout]) };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Sends `message` to a child and resolves with its reply; rejects if the child ends first (no hang). */
async function ask(child, message) {
  const settled = new AbortController();
  const answer = once(child, 'message', { signal: settled.signal });
  const ended = once(child, 'exit', { signal: settled.signal }).then(([code, signal]) => {
    throw new Error(`${child.spawnargs.slice(1).join(' ')} ended (${signal ?? `code ${code}`}) before answering`);
  });
  // The loser of the race rejects when `settled` aborts: nobody waits for it.
  answer.catch(() => {});
  ended.catch(() => {});
  try {
    child.send(message);
    const [reply] = await Promise.race([answer, ended]);
    return reply;
  } finally {
    settled.abort();
  }
}

/** One server and its library's client, each in its own process. */
async function startPair(kind) {
  const server = await startChild(`${kind} stream server`, serverProcess, [kind]);
  const url = `http://127.0.0.1:${server.info.port}${server.info.path}`;
  let client;
  try {
    client = await startChild(`${kind} stream client`, clientProcess, [kind, url]);
  } catch (error) {
    await stopChild(server.child);
    throw error;
  }
  return { kind, server: server.child, client: client.child, stop: () => Promise.all([stopChild(server.child), stopChild(client.child)]) };
}

/** CPU time (user + system, in microseconds) the server process has used so far. */
async function serverCpuTime(pair) {
  const { user, system } = await ask(pair.server, 'cpu-usage');
  return user + system;
}

/** What the client process answers: its result, or the error it met, thrown here. */
async function askClient(pair, message) {
  const reply = await ask(pair.client, message);
  if (reply.error) throw new Error(`${pair.kind} stream client: ${reply.error}`);
  return reply.result;
}

/** Streams `count` items from one server through its client: items/s, CPU time per item (us), latency (ms). */
async function streamOnce(pair, count, intervalMs) {
  const serverBefore = await serverCpuTime(pair);
  const run = await askClient(pair, { run: { count, intervalMs, latencies: intervalMs > 0 } });
  const serverCpu = (await serverCpuTime(pair)) - serverBefore;
  return {
    itemsPerSecond: count / run.seconds,
    serverCpu: serverCpu / count,
    clientCpu: run.cpu / count,
    p50: run.p50,
    p99: run.p99,
    latencies: run.latencies,
  };
}

/** Every client must read the same items from its server (the moment each was made aside). */
async function checkSameItems(pairs) {
  const texts = [];
  for (const pair of pairs) {
    const items = await askClient(pair, { sample: 3 });
    texts.push(items.map((item) => JSON.stringify({ ...item, sentAt: 0 })).join('\n'));
  }
  for (let i = 1; i < pairs.length; i++) {
    if (texts[i] !== texts[0]) throw new Error(`${pairs[i].kind} streams other items than ${pairs[0].kind}:\n${texts[i]}\n${texts[0]}`);
  }
}

/**
 * The pairs in the order round `round` visits them: every ordering in turn, so each runs after each
 * other one equally often.
 */
function orderOfRound(pairs, round) {
  const orders = permutations(pairs);
  return orders[round % orders.length];
}

function permutations(list) {
  if (list.length <= 1) return [list];
  return list.flatMap((first, i) => permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((rest) => [first, ...rest]));
}

/**
 * Runs the suite and returns table rows. `options`: `rounds`, `count` (items per burst),
 * `latencyCount` (items per latency run), `warmupCount` (items streamed once per server before the
 * first round).
 */
export async function runStreamsSuite(options) {
  const pairs = [];
  try {
    for (const kind of kinds) pairs.push(await startPair(kind));
    await checkSameItems(pairs);
    for (const pair of pairs) await streamOnce(pair, options.warmupCount, 0);
    const samples = Object.fromEntries(kinds.map((kind) => [kind, []]));
    const latencies = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (const pair of orderOfRound(pairs, round)) {
        const burst = await streamOnce(pair, options.count, 0);
        const paced = await streamOnce(pair, options.latencyCount, latencyIntervalMs);
        samples[pair.kind].push({
          itemsPerSecond: burst.itemsPerSecond,
          serverCpu: burst.serverCpu,
          clientCpu: burst.clientCpu,
          p50: paced.p50,
          p99: paced.p99,
          burstP50: burst.p50,
        });
        latencies[pair.kind].push(...paced.latencies);
      }
    }
    const { rows, perRoundRatios } = streamRows(samples, options);
    const pooledLatency = Object.fromEntries(
      kinds.map((kind) => [kind, { p50: quantile(latencies[kind], 0.5), p99: quantile(latencies[kind], 0.99) }]),
    );
    return { rows, info: { ...streamInfo(samples, options), perRoundRatios, pooledLatency, rounds: samples } };
  } finally {
    await Promise.all(pairs.map((pair) => pair.stop()));
  }
}

const items = (n) => n.toLocaleString('en-US');

/**
 * Medians over rounds, the interquartile range as the spread. Latency: each round's p50 and p99 of
 * its latency run, then the median over rounds, so a round in which another process of the shared
 * machine held a core (its p99 then 5-75 ms, whichever server it hit) moves the figure little; the
 * quantiles of all rounds' items pooled, which such a round does move, are in `info.pooledLatency`.
 */
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
  const perRoundRatios = {};
  for (const [field, metric, unit, higherIsBetter] of measures) {
    for (const peer of peers) {
      const { row, perRoundRatio } = pairedRow({
        group: 'streams',
        metric,
        unit,
        peerName: peer.label,
        ours: samples.ours.map((s) => s[field]),
        peer: samples[peer.kind].map((s) => s[field]),
        higherIsBetter,
      });
      rows.push(row);
      perRoundRatios[`${field} / ${peer.kind}`] = perRoundRatio;
    }
  }
  return { rows, perRoundRatios };
}

/**
 * The settings, every server's medians over rounds (`p50`, `p99`: of each round's latency run;
 * `burstP50`: the latency p50 of the bursts, where items queue), and oRPC against the bare loop too
 * (the table holds ours against each peer). The suite's `info` adds `perRoundRatios` (ours / peer
 * per round: median and interquartile range), `pooledLatency` (p50 and p99 of every item of every
 * round's latency run) and `rounds` (every round's figures).
 */
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
