/**
 * `idlrpc -conform`'s cost per call against the generated client's: both call getProduct of the same
 * server (another process) the same number of times, one call after another; the figure is this
 * process's CPU time per request. Goal: at most 3x the client's (issue 39).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpTransport, callMethod } from '../../dist/runtime/client.js';
import { interfaceFingerprints } from '../../dist/runtime/contract-fingerprint.js';
import { runConformance } from '../../dist/src/conform/index.js';
import { compileIdl } from '../../dist/src/idl/compile.js';
import { toIdlJson } from '../../dist/src/idl/json.js';
import { idlToOpenApi } from '../../dist/src/openapi/index.js';

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function startServer() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../lib/conform-server.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /port (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error('the bench server exited')));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

/** Microseconds of CPU per getProduct call of the generated client (what its method body does). */
async function clientMicroseconds(url, contract, calls) {
  const transport = new HttpTransport(url);
  const start = cpu();
  for (let i = 0; i < calls; i++)
    await callMethod(transport, 'CatalogService.getProduct', [i % 2 ? 'p1' : `p${i}`], [], undefined, contract);
  return (cpu() - start) / calls;
}

/** Microseconds of CPU per request of a -conform run of getProduct (start-up, probes and shrinking included). */
async function conformMicroseconds(url, idl, openApi, runs) {
  const start = cpu();
  const report = await runConformance({
    url,
    idl,
    openApi,
    methods: ['CatalogService.getProduct'],
    all: false,
    rest: false,
    runs,
    seed: 1,
    headers: {},
    rate: 1e9,
  });
  if (report.violations.length > 0) throw new Error(`-conform found violations in the bench server: ${report.violations[0].message}`);
  return (cpu() - start) / report.requests;
}

export async function runConformSuite({ calls, rounds }) {
  const model = compileIdl(readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8'), 'checkout.idl');
  const idl = toIdlJson(model);
  const openApi = idlToOpenApi([model]).document;
  const contract = interfaceFingerprints(idl).get('CatalogService');
  const server = await startServer();
  try {
    const client = [];
    const conform = [];
    // Warm both paths once, then alternate, so neither is measured on a colder process.
    await clientMicroseconds(server.url, contract, 200);
    await conformMicroseconds(server.url, idl, openApi, 200);
    for (let round = 0; round < rounds; round++) {
      client.push(await clientMicroseconds(server.url, contract, calls));
      conform.push(await conformMicroseconds(server.url, idl, openApi, calls));
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ours = median(conform);
    const peer = median(client);
    return {
      rows: [
        {
          group: 'conform',
          metric: 'idlrpc -conform, CPU per request (getProduct), against the generated client making the calls (goal: at most 3x)',
          unit: 'µs',
          ours,
          peerName: 'generated client',
          peer,
          higherIsBetter: false,
        },
      ],
      info: { conform: { calls, rounds, ratio: ours / peer } },
    };
  } finally {
    server.stop();
  }
}
