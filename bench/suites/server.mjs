/**
 * Server throughput and latency on loopback: each server runs in its own child process, autocannon
 * runs in this process. oRPC and tRPC get the requests their own clients send for each call. Rounds are interleaved (every round visits every server and call, in a
 * rotating order) and the table reports medians over rounds.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { catalogSize, comparable, serverCalls } from '../lib/checkout.mjs';
import { orpcClientCall, orpcLabel, orpcRequests, orpcResults } from '../lib/orpc-checkout.mjs';
import { jsonRpcResults, postJson } from '../lib/peer-calls.mjs';
import { median, quantile } from '../lib/stats.mjs';
import { trpcClientCall, trpcLabel, trpcRequests, trpcResults } from '../lib/trpc-checkout.mjs';

const serverProcess = fileURLToPath(new URL('./server-process.mjs', import.meta.url));
const peers = [
  { kind: 'bare', label: 'bare node:http (ceiling)' },
  { kind: 'bare-handlers', label: 'bare node:http + handlers' },
  { kind: 'jayson', label: 'jayson' },
  { kind: 'json-rpc-2.0', label: 'json-rpc-2.0' },
  { kind: 'orpc', label: orpcLabel },
  { kind: 'trpc', label: trpcLabel },
];
const kinds = ['ours', ...peers.map((p) => p.kind)];

/**
 * The servers that speak their own protocol instead of JSON-RPC: the HTTP requests of a call as
 * their own client sends them, the results of the answers (texts joined by newlines) in call order,
 * and a call made with their client (`{ results, sent }`).
 */
const ownProtocols = {
  orpc: { requests: orpcRequests, results: (_call, text) => orpcResults(text), client: orpcClientCall },
  trpc: { requests: trpcRequests, results: trpcResults, client: trpcClientCall },
};

/**
 * The HTTP requests that make one call (`call`, a key of `serverCalls`) on `server`: one POST of the
 * JSON-RPC body, or a peer's own requests. tRPC's 10-call batch is two requests (its client batches
 * queries and mutations apart); the rows count such a pair as one request.
 */
function callRequests(server, call) {
  const own = ownProtocols[server.kind];
  return own ? own.requests(call, server.origin) : [postJson('/', serverCalls[call])];
}

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
  const origin = `http://127.0.0.1:${info.port}`;
  return { kind, origin, url: `${origin}/`, handlers: info.handlers, child, stop };
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

/** Sends one of `callRequests` and gives the answer's text (any 2xx: oRPC answers a batch with 207). */
async function send(server, { method, path, headers, body }) {
  const response = await fetch(`${server.origin}${path}`, { method, headers, body });
  if (!response.ok) throw new Error(`${server.kind} answered ${method} ${path} with HTTP ${response.status}`);
  return response.text();
}

/**
 * The JSON-RPC servers must give the same answers before we time them, or the comparison means
 * nothing; the others (`ownProtocols`) the same results as ours, both to the requests the suite
 * sends and through their own client, which must send exactly those requests.
 */
async function checkSameAnswers(allServers) {
  const servers = allServers.filter((s) => !ownProtocols[s.kind]);
  for (const [call, body] of Object.entries(serverCalls)) {
    const answers = await Promise.all(servers.map(async (s) => comparable(await post(s.url, body))));
    for (let i = 1; i < servers.length; i++) {
      if (answers[i] !== answers[0]) {
        throw new Error(`${servers[i].kind} answers ${call} differently from ${servers[0].kind}:\n${answers[i]}\n${answers[0]}`);
      }
    }
    if (answers[0].includes('"error"')) throw new Error(`${call} failed on every server: ${answers[0]}`);
    const ours = comparable(jsonRpcResults(await send(servers[0], callRequests(servers[0], call)[0])));
    for (const server of allServers.filter((s) => ownProtocols[s.kind])) {
      const own = ownProtocols[server.kind];
      const requests = callRequests(server, call);
      const texts = await Promise.all(requests.map((request) => send(server, request)));
      const theirs = comparable(own.results(call, texts.join('\n')));
      if (theirs !== ours) throw new Error(`${server.kind} answers ${call} differently from ours:\n${theirs}\n${ours}`);
      const { results, sent } = await own.client(call, server.origin);
      if (comparable(results) !== ours)
        throw new Error(`${server.kind}'s client gives ${call} differently from ours: ${comparable(results)}`);
      const expected = requests.map(({ method, path, body }) => ({ method, path, body: body ?? '' }));
      if (JSON.stringify(sent) !== JSON.stringify(expected)) {
        throw new Error(
          `${server.kind}'s client sends ${call} otherwise than the suite:\n${JSON.stringify(sent)}\n${JSON.stringify(expected)}`,
        );
      }
    }
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
 *
 * `requests` are the HTTP requests of one call (`callRequests`); when there are several, each
 * figure is per group: requests/s divided by their number, CPU time per group, latency of a group
 * the sum of its requests' times.
 */
async function load(server, requests, seconds) {
  const { url } = server;
  const latencies = [];
  const cpuBefore = await cpuTime(server);
  const run = autocannon({ url, requests, connections: 10, pipelining: 1, duration: seconds });
  // A call of several requests (tRPC's batch): each connection sends them one after the other, in
  // turn, and the call's time is theirs added up.
  const pending = new Map();
  run.on('response', (client, _status, _bytes, responseTime) => {
    const sofar = pending.get(client) ?? { time: 0, count: 0 };
    sofar.time += responseTime;
    if (++sofar.count < requests.length) pending.set(client, sofar);
    else {
      pending.delete(client);
      latencies.push(sofar.time);
    }
  });
  const result = await run;
  const cpuUsed = (await cpuTime(server)) - cpuBefore;
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`load on ${url} had ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return {
    rps: result.requests.average / requests.length,
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
      for (const call of calls) for (const s of servers) await load(s, callRequests(s, call), options.warmupSeconds);
    }
    const samples = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const call of calls) {
        for (let i = 0; i < kinds.length; i++) {
          const kind = kinds[(i + round) % kinds.length];
          const key = `${call}/${kind}`;
          (samples[key] ??= []).push(await load(byKind[kind], callRequests(byKind[kind], call), options.seconds));
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
