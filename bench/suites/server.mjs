/**
 * Server throughput and latency on loopback: each server runs in its own child process, autocannon
 * runs in this process. Rounds are interleaved (every round visits every server and call, in a
 * rotating order) and the table reports medians over rounds.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { catalogSize, comparable, serverCalls } from '../lib/checkout.mjs';
import { median, quantile } from '../lib/stats.mjs';

const serverProcess = fileURLToPath(new URL('./server-process.mjs', import.meta.url));
const peers = [
  { kind: 'bare', label: 'bare node:http (ceiling)' },
  { kind: 'bare-handlers', label: 'bare node:http + handlers' },
  { kind: 'jayson', label: 'jayson' },
  { kind: 'json-rpc-2.0', label: 'json-rpc-2.0' },
];
const kinds = ['ours', ...peers.map((p) => p.kind)];

/** Starts one server child process; resolves with its port, handler source and a stop function. */
async function startServer(kind) {
  // The IPC channel carries the CPU time questions (see `cpuTime`).
  const child = spawn(process.execPath, [serverProcess, kind], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const lines = createInterface({ input: child.stdout });
  const ready = new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with code ${code} before listening`)));
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`${kind} server did not start in 30 s`)), 30_000).unref());
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
  return { kind, url: `http://127.0.0.1:${info.port}/`, handlers: info.handlers, child, stop };
}

/** CPU time (user + system, in microseconds) the server process has used so far. */
async function cpuTime(server) {
  const answer = once(server.child, 'message');
  server.child.send('cpu-usage');
  const [{ user, system }] = await answer;
  return user + system;
}

async function post(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.json();
}

/** Every server must give the same answers before we time them, or the comparison means nothing. */
async function checkSameAnswers(servers) {
  for (const [call, body] of Object.entries(serverCalls)) {
    const answers = await Promise.all(servers.map(async (s) => comparable(await post(s.url, body))));
    for (let i = 1; i < servers.length; i++) {
      if (answers[i] !== answers[0]) {
        throw new Error(`${servers[i].kind} answers ${call} differently from ${servers[0].kind}:\n${answers[i]}\n${answers[0]}`);
      }
    }
    if (answers[0].includes('"error"')) throw new Error(`${call} failed on every server: ${answers[0]}`);
  }
}

/**
 * One autocannon run: requests/s (mean over the run's seconds), latency percentiles in ms, and the
 * server's CPU time per request in microseconds. autocannon's own histogram keeps whole
 * milliseconds, which reads 0 ms for most loopback calls, so the exact per-response times it emits
 * are collected instead.
 *
 * CPU per request is the server's own cost, whatever the load generator manages: on two cores
 * autocannon saturates its core first for the cheapest calls, and then every server shows about
 * the same requests/s.
 */
async function load(server, body, seconds) {
  const { url } = server;
  const latencies = [];
  const cpuBefore = await cpuTime(server);
  const run = autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: 10,
    pipelining: 1,
    duration: seconds,
  });
  run.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await run;
  const cpuUsed = (await cpuTime(server)) - cpuBefore;
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`load on ${url} had ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return {
    rps: result.requests.average,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    cpu: cpuUsed / Math.max(1, latencies.length),
  };
}

/**
 * Runs the suite and returns table rows. `options.rounds` and `options.seconds` size it;
 * `options.warmupSeconds` is spent once per server and call before the first round.
 */
export async function runServerSuite(options) {
  const servers = [];
  try {
    for (const kind of kinds) servers.push(await startServer(kind));
    await checkSameAnswers(servers);
    const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
    const calls = Object.keys(serverCalls);
    if (options.warmupSeconds > 0) {
      for (const call of calls) for (const s of servers) await load(s, serverCalls[call], options.warmupSeconds);
    }
    const samples = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const call of calls) {
        for (let i = 0; i < kinds.length; i++) {
          const kind = kinds[(i + round) % kinds.length];
          const key = `${call}/${kind}`;
          (samples[key] ??= []).push(await load(byKind[kind], serverCalls[call], options.seconds));
        }
      }
    }
    const stat = (call, kind, field) => median(samples[`${call}/${kind}`].map((s) => s[field]));
    const rows = [];
    const callLabel = {
      getProduct: 'getProduct',
      addToCart: 'addToCart',
      listProducts: `listProducts (${catalogSize} products)`,
      batch10: '10-call batch',
    };
    const measures = [
      ['rps', 'req/s', true],
      ['cpu', 'us', false],
      ['p50', 'ms', false],
      ['p99', 'ms', false],
    ];
    const measureLabel = { rps: 'throughput', cpu: 'server CPU time per request', p50: 'p50 latency', p99: 'p99 latency' };
    for (const call of calls) {
      for (const [field, unit, higherIsBetter] of measures) {
        for (const peer of peers) {
          rows.push({
            group: 'server',
            metric: `server ${callLabel[call]} ${measureLabel[field]}`,
            unit,
            ours: stat(call, 'ours', field),
            peerName: peer.label,
            peer: stat(call, peer.kind, field),
            higherIsBetter,
          });
        }
      }
    }
    return { rows, info: { handlers: servers[0].handlers } };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
