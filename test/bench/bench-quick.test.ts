/**
 * Runs `npm run bench -- --quick` (bench/run.mjs against dist/, which `npm test` builds first) so the
 * benchmarks never rot. It checks that every row of the table is there with finite, positive
 * figures; it holds no thresholds: speed is judged in docs/benchmarks.md, not in CI.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumPath } from '../chromium.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

interface Row {
  group: string;
  metric: string;
  unit: string;
  ours: number;
  peerName?: string;
  peer: number | null;
  oursSpread?: [number, number];
  peerSpread?: [number, number];
}

interface Report {
  quick: boolean;
  rows: Row[];
  failures: string[];
  machine: { cpus: number; node: string };
}

const serverPeers = ['bare node:http (ceiling)', 'bare node:http + handlers', 'jayson', 'json-rpc-2.0', 'oRPC 1.16.1', 'tRPC 11.25.2'];
const serverRows = ['getProduct', 'addToCart', 'listProducts (100 products)', '10-call batch'].flatMap((call) =>
  ['throughput', 'server CPU time per request', 'p50 latency', 'p99 latency'].flatMap((figure) =>
    serverPeers.map((peer) => `server ${call} ${figure} | ${peer}`),
  ),
);
// The quick run streams 2,000 items per burst (bench/run.mjs).
const streamRows = [
  'streams: 2,000 Order items over one SSE response, throughput',
  'streams: 2,000 Order items over one SSE response, server CPU time per item',
  "streams: 2,000 Order items over one SSE response, client CPU time per item (each library's own client)",
  "streams: items 1 ms apart, p50 latency from the handler's yield to the client's loop body",
  "streams: items 1 ms apart, p99 latency from the handler's yield to the client's loop body",
].flatMap((metric) => ['bare node:http SSE loop', 'oRPC 1.16.1 event iterator'].map((peer) => `${metric} | ${peer}`));
const inProcessPeers = ['bare handlers (reference)', 'jayson', 'json-rpc-2.0', 'oRPC 1.16.1', 'tRPC 11.25.2'];
const inProcessRows = [
  'getProduct',
  'addToCart',
  'listProducts (100 products)',
  '10-call batch',
  'getProduct (plain-value handler)',
].flatMap((call) => [
  ...inProcessPeers.map((peer) => `in-process ${call} CPU time per request | ${peer}`),
  `in-process ${call} with one no-op middleware, CPU time per request | ours without middleware`,
]);
const readsRows = ['getProduct', 'listProducts (100 products)'].flatMap((call) =>
  ['as a GET answered 304 (If-None-Match: its ETag)', 'as a GET answered 200 with its ETag'].map(
    (form) => `reads: ${call} ${form}, in-process CPU time per request | the same call as a JSON-RPC POST`,
  ),
);
const mcpRows = [
  ...['getProduct', 'addToCart', 'listProducts (100 products)'].map(
    (call) => `MCP tools/call ${call}, in-process CPU time per request | JSON-RPC call of the same method, same server`,
  ),
  'server start-up with the MCP binding: import the runtime, create the checkout server (new process, CPU time) | the same server without MCP',
  'server bundle with the MCP binding, minified (esbuild, platform node) | the same server without MCP',
];
const validationRows = [
  'validate signup with constraints',
  'reject signup with constraints (yes/no)',
  'reject signup with constraints with every problem listed',
  'validate AddToCartRequest valid',
  'validate CreateOrderRequest valid',
  'validate Order (10-item cart) valid',
  'reject CreateOrderRequest invalid (yes/no)',
  'reject CreateOrderRequest invalid with every problem listed',
  'reject Order (10-item cart) invalid (yes/no)',
  'reject Order (10-item cart) invalid with every problem listed',
].map((metric) => `${metric} | Ajv`);
const compilerRows = [
  'compile + generate checkout.idl | -',
  'compile + generate synthetic 1,000-line IDL | -',
  'parse + check synthetic 10,000-line IDL | goal',
  'generate synthetic 10,000-line IDL | -',
  'compile + generate synthetic 10,000-line IDL | goal',
  ...[
    ['extends chain', 'structs'],
    ['unknown type names among as many types (with "did you mean")', 'names'],
    ['enum', 'values'],
    ['struct', 'fields'],
    ['interface', 'methods'],
  ].flatMap(([shape, items]) =>
    ['1,000', '10,000', '100,000'].map((n) => `parse + check${items === 'names' ? ' + report' : ''}: ${shape}, ${n} ${items} | -`),
  ),
  // 100,000 structs only in full runs (about 15 s).
  ...['1,000', '10,000'].map((n) => `generate (module + output directory): extends chain, ${n} structs | -`),
  'vite build: plugin load hook for checkout.idl | -',
  'vite build of an app importing checkout.idl, whole build | -',
  'vite build: plugin load hook for synthetic-1000.idl | -',
  'vite build of an app importing synthetic-1000.idl, whole build | -',
];
const converterRows = [
  'OpenAPI -> IDL time',
  'OpenAPI -> IDL peak memory (process peak RSS)',
  'IDL -> OpenAPI time (compile + convert + serialise)',
  'IDL -> OpenAPI peak memory (process peak RSS)',
].map((metric) => `${metric} | -`);
const converterScalingRows = ['nested schemas', '$ref chain', 'allOf chain', 'enum values'].flatMap((shape) => [
  `OpenAPI -> IDL, ${shape}, n = 1,000 | -`,
  `OpenAPI -> IDL, ${shape}, n = 10,000 | linear: 10 x n = 1,000`,
  `OpenAPI -> IDL, ${shape}, n = 100,000 | linear: 10 x n = 10,000`,
]);
const clientRows = [
  ...['jayson', 'json-rpc-2.0', 'goal'].map((peer) =>
    peer === 'goal'
      ? 'client bundle, one getProduct call, minified + gzipped, against the 3 KB goal | goal'
      : `client bundle, one getProduct call, minified + gzipped | ${peer}`,
  ),
  'client bundle, BatchingTransport + one interceptor, two calls, minified + gzipped, against the 2.5 KB goal | goal',
];
const lspRows = ['language server: diagnostics after an edit, synthetic 10,000-line IDL | goal'];
// GitHub's IDL and the larger synthetic sizes only in full runs (minutes of tsc).
const typesRows = ['TypeScript 7.0.2: synthetic IDL of 250 structs, .idl.d.ts app, tsc total time | -'];

// The quick run builds checkout.idl with two of the six bundlers (bench/run.mjs says why).
const pregenerated = { vite: 'gen/*.ts, Vite TypeScript', esbuild: 'gen/*.ts, esbuild TypeScript' };
const buildRows = [
  ...(['vite', 'esbuild'] as const).flatMap((bundler) =>
    ['cold (new process, fresh app folder)', 'warm (new process, second build in the same folder)'].flatMap((kind) =>
      ['.idl through the plugin', 'pre-generated TS with a no-op unplugin plugin (the floor of any plugin)'].map(
        (what) =>
          `${bundler === 'vite' ? 'Vite' : 'esbuild'} build, ${kind}, app importing checkout.idl: ${what} | pre-generated TS (${pregenerated[bundler]})`,
      ),
    ),
  ),
  'plugin start-up: import unplugin-idl-rpc/vite and create the plugin (new process) | no-op plugin (unplugin createUnplugin)',
  'plugin start-up: module files loaded until the plugin is created (Node built-ins not counted) | no-op plugin (unplugin createUnplugin)',
];
const devRows = [
  ...['checkout.idl', 'one 10,008-line IDL file'].flatMap((app) => [
    `Vite dev server, ${app}: new process until the .idl module and every module it imports are served | pre-generated gen/index.ts and every module it imports`,
    `Vite dev server, ${app}: struct appended to the .idl until its module is served with it | line appended to pre-generated gen/types.ts until served with it`,
  ]),
  'Vite dev server, one 10,008-line IDL file: field added to the struct in the middle of the .idl (one the methods reach) until its module is served with it | line appended to pre-generated gen/types.ts until served with it',
  `Vite dev server, client-only page creating one CatalogServiceClient: JavaScript modules loaded (counted in ${existsSync(chromiumPath) ? 'Chromium' : 'module graph'}) | pre-generated gen/client.ts + gen/runtime/client.ts`,
  'Vite dev server RSS after 5 edits of one 10,008-line IDL file, each served, after GC | 5 edits of its pre-generated gen/types.ts',
];

// idlrpc -conform against the generated client, one row.
const conformRows = [
  'idlrpc -conform, CPU per request (getProduct), against the generated client making the calls (goal: at most 3x) | generated client',
];

describe('npm run bench -- --quick', () => {
  let workDir: string;
  let report: Report;
  let table: string;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'bench-quick-'));
    const jsonFile = path.join(workDir, 'bench.json');
    const { stdout } = await run(process.execPath, ['bench/run.mjs', '--quick', '--json', jsonFile], {
      cwd: repoRoot,
      timeout: 540_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    table = stdout;
    report = JSON.parse(readFileSync(jsonFile, 'utf8')) as Report;
  }, 550_000);

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  test('every suite ran', () => {
    expect(report.failures).toEqual([]);
    expect(report.quick).toBe(true);
  });

  test('the table has every row, once', () => {
    const keys = report.rows.map((row) => `${row.metric} | ${row.peer === null ? '-' : row.peerName}`);
    expect(keys).toEqual([
      ...serverRows,
      ...streamRows,
      ...inProcessRows,
      ...readsRows,
      ...mcpRows,
      ...validationRows,
      ...compilerRows,
      ...converterRows,
      ...converterScalingRows,
      ...clientRows,
      ...buildRows,
      ...devRows,
      ...lspRows,
      ...typesRows,
      ...conformRows,
    ]);
  });

  test('every figure is finite and positive', () => {
    for (const row of report.rows) {
      expect(Number.isFinite(row.ours) && row.ours > 0, `${row.metric}: ours = ${row.ours}`).toBe(true);
      if (row.peer !== null) {
        expect(Number.isFinite(row.peer) && row.peer > 0, `${row.metric}: ${row.peerName} = ${row.peer}`).toBe(true);
      }
    }
  });

  test('in-process rows give the spread over rounds around each median', () => {
    const inProcess = report.rows.filter((row) => row.metric.startsWith('in-process '));
    expect(inProcess).toHaveLength(inProcessRows.length);
    for (const row of inProcess) {
      for (const [median, spread] of [
        [row.ours, row.oursSpread],
        [row.peer, row.peerSpread],
      ] as const) {
        expect(spread, row.metric).toHaveLength(2);
        const [low, high] = spread!;
        expect(low > 0 && low <= median! && median! <= high, `${row.metric}: ${median} in ${low}-${high}`).toBe(true);
      }
    }
  });

  test('prints the table with a ratio for every compared row', () => {
    const lines = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| metric') && !line.startsWith('| ---'));
    expect(lines).toHaveLength(report.rows.length);
    report.rows.forEach((row, i) => {
      const ratio = lines[i].split('|').at(-2)!.trim();
      if (row.peer === null) expect(ratio).toBe('-');
      else expect(Math.abs(Number(ratio) - row.ours / row.peer), `${row.metric}: ratio ${ratio}`).toBeLessThanOrEqual(0.0051);
    });
  });
});

test('--help prints the options; an unknown option exits 2 with them', async () => {
  const { stdout } = await run(process.execPath, ['bench/run.mjs', '--help'], { cwd: repoRoot });
  expect(stdout).toMatch(/^usage: node bench\/run\.mjs/);
  expect(stdout).toContain('--baseline <dir>');
  const failed = run(process.execPath, ['bench/run.mjs', '--rounds', '3'], { cwd: repoRoot });
  await expect(failed).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option '--rounds'[\s\S]*usage:/) });
});
