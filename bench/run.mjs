#!/usr/bin/env node
/**
 * `npm run bench`: measures unplugin-idl-rpc against the tools a user would otherwise pick and
 * prints one table (metric, ours, peer, ratio). Needs `npm run build` first (it measures dist/).
 * Options: see USAGE (`npm run bench -- --help`).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { markdownTable } from './lib/table.mjs';

const USAGE = `usage: node bench/run.mjs [options]      (npm run bench -- [options])

  (no option)                        full run (about 45 minutes on 2 cores)
  --quick                            short run for CI (about 80 seconds); same rows, fewer rounds
  --only <suites>                    run some suites, comma-separated: server, streams, inprocess,
                                     reads, mcp, validation, compiler, converter, converter-scaling,
                                     client, build, dev, lsp, types, conform
  --only next                        Next.js builds with the plugin and pre-generated (on demand only)
  --bundlers <names>                 the build suite builds with these bundlers and hosts only
                                     (e.g. rsbuild,farm,bun)
  --json <file>                      also write rows and machine info as JSON
  --baseline <dir>                   the in-process suite also times the server of another built
                                     checkout of this package (e.g. the commit before a change)
  --help                             this text
`;

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      bundlers: { type: 'string' },
      json: { type: 'string' },
      baseline: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

/** Rounds and durations: `quick` keeps every row but measures briefly. */
const settings = args.quick
  ? {
      server: { rounds: 1, seconds: 1, warmupSeconds: 0 },
      streams: { rounds: 1, count: 2_000, latencyCount: 100, warmupCount: 2_000 },
      inprocess: { rounds: 3, budgetMs: 10, warmupMs: 10, baseline: args.baseline },
      reads: { rounds: 3, budgetMs: 10, warmupMs: 10 },
      mcp: { rounds: 3, budgetMs: 10, warmupMs: 10, startupRounds: 1 },
      validation: { rounds: 1, budgetMs: 30 },
      compiler: { rounds: 1, warmup: false, budgetMs: 5_000, viteBuilds: 1, generatorSizes: [1_000, 10_000] },
      converter: { rounds: 1, quick: true },
      'converter-scaling': { rounds: 1 },
      client: {},
      // Every app and bundler once would add about 2.5 minutes: CI builds checkout.idl with two bundlers.
      build: { rounds: 1, apps: ['checkout'], bundlers: ['vite', 'esbuild'], startupRounds: 3 },
      dev: { rounds: 1, edits: 3, memoryRounds: 1, memoryEdits: 5 },
      lsp: { rounds: 5 },
      // GitHub's IDL and the larger synthetic sizes take minutes: full runs only.
      types: { rounds: 1, github: false, syntheticSizes: [250], outputDirectorySizes: [] },
      conform: { rounds: 1, calls: 300 },
      next: { rounds: 1 },
    }
  : {
      // Eight turns per server and call: one run of three turns moved single calls by up to 15%.
      server: { rounds: 8, seconds: 2, warmupSeconds: 1 },
      streams: { rounds: 12, count: 20_000, latencyCount: 1_000, warmupCount: 60_000 },
      inprocess: { rounds: 60, budgetMs: 25, warmupMs: 300, baseline: args.baseline },
      reads: { rounds: 40, budgetMs: 25, warmupMs: 300 },
      mcp: { rounds: 40, budgetMs: 25, warmupMs: 300, startupRounds: 15 },
      validation: { rounds: 5, budgetMs: 200 },
      compiler: { rounds: 5, warmup: true, budgetMs: 20_000, viteBuilds: 3, generatorSizes: [1_000, 10_000, 100_000] },
      converter: { rounds: 3, quick: false },
      'converter-scaling': { rounds: 3 },
      client: {},
      build: { rounds: 7, startupRounds: 15 },
      dev: { rounds: 7, edits: 5, memoryRounds: 3, memoryEdits: 50 },
      lsp: { rounds: 20 },
      types: {
        rounds: 3,
        github: true,
        githubCompletion: true,
        completionRounds: 15,
        completionServers: 5,
        githubOutputDirectory: true,
        syntheticSizes: [1_000, 5_000, 20_000],
        outputDirectorySizes: [1_000, 5_000],
      },
      conform: { rounds: 5, calls: 2_000 },
      next: { rounds: 3 },
    };

if (args.bundlers) settings.build.bundlers = args.bundlers.split(',').map((s) => s.trim());

// Loaded on demand, so one suite's missing piece does not stop the others.
const suites = {
  server: async (s) => (await import('./suites/server.mjs')).runServerSuite(s),
  streams: async (s) => (await import('./suites/streams.mjs')).runStreamsSuite(s),
  inprocess: async (s) => (await import('./suites/inprocess.mjs')).runInProcessSuite(s),
  reads: async (s) => (await import('./suites/reads.mjs')).runReadsSuite(s),
  mcp: async (s) => (await import('./suites/mcp.mjs')).runMcpSuite(s),
  validation: async (s) => (await import('./suites/validation.mjs')).runValidationSuite(s),
  compiler: async (s) => (await import('./suites/compiler.mjs')).runCompilerSuite(s),
  converter: async (s) => (await import('./suites/converter.mjs')).runConverterSuite(s),
  'converter-scaling': async (s) => (await import('./suites/converter-scaling.mjs')).runConverterScalingSuite(s),
  client: async (s) => (await import('./suites/client-size.mjs')).runClientSizeSuite(s),
  build: async (s) => (await import('./suites/build.mjs')).runBuildSuite(s),
  dev: async (s) => (await import('./suites/dev.mjs')).runDevSuite(s),
  lsp: async (s) => (await import('./suites/lsp.mjs')).runLspSuite(s),
  types: async (s) => (await import('./suites/types.mjs')).runTypesSuite(s),
  conform: async (s) => (await import('./suites/conform.mjs')).runConformSuite(s),
  next: async (s) => (await import('./suites/next-build.mjs')).runNextBuildSuite(s),
};
/** Suites that run only when named in --only (each takes many minutes). */
const ON_DEMAND = new Set(['next']);
const selected = args.only ? args.only.split(',').map((s) => s.trim()) : Object.keys(suites).filter((name) => !ON_DEMAND.has(name));
for (const name of selected) {
  if (!suites[name]) {
    console.error(`unknown suite "${name}"; suites: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
}

const machine = {
  cpus: os.availableParallelism(),
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
console.error(
  `unplugin-idl-rpc benchmarks (${args.quick ? 'quick' : 'full'}): ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}`,
);

const started = Date.now();
const rows = [];
const info = {};
const failures = [];
for (const name of selected) {
  const suiteStart = Date.now();
  console.error(`- ${name} ...`);
  try {
    const result = await suites[name](settings[name]);
    rows.push(...result.rows);
    info[name] = result.info;
    console.error(`  done in ${((Date.now() - suiteStart) / 1000).toFixed(1)} s`);
  } catch (error) {
    failures.push(name);
    console.error(`  FAILED: ${error instanceof Error ? error.stack : error}`);
  }
}
const seconds = (Date.now() - started) / 1000;

console.log(markdownTable(rows));
console.log(
  `\n${args.quick ? 'Quick' : 'Full'} run in ${seconds.toFixed(0)} s on ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}.`,
);
for (const [name, details] of Object.entries(info)) console.log(`${name}: ${JSON.stringify(details)}`);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ quick: args.quick, seconds, machine, info, rows, failures }, null, 2)}\n`);
if (failures.length > 0) {
  console.error(`\nsuites that failed: ${failures.join(', ')}`);
  process.exitCode = 1;
}
