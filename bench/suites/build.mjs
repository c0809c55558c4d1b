/**
 * Build cost of the plugin: production builds of the same app with its `.idl` files going through
 * the plugin, and with the TypeScript `idlrpc -plugin ts-client-server -ts-module esm-bundler` wrote
 * ahead of time (bench/lib/build-apps.mjs), for each of the six bundlers and three apps; each build
 * in a fresh process (bench/suites/build-process.mjs). Cold: a fresh copy of the app folder. Warm:
 * a second build, in a new process, in the folder the cold build left (whatever the plugin or
 * bundler keeps on disk is there). Rounds are interleaved and alternate which variant goes first.
 * The checkout app is also built pre-generated with a no-op unplugin plugin: the floor that any
 * plugin made with unplugin puts under the plugin rows (its start-up, the bundler's plugin calls).
 *
 * Also the plugin's start-up: importing `unplugin-idl-rpc/vite` and creating the plugin against a
 * no-op unplugin plugin, time and modules loaded (bench/suites/plugin-startup-process.mjs).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appDefinitions, freshAppCopy, writeAppTemplates } from '../lib/build-apps.mjs';
import { BUNDLERS, HOST_BINARIES, PREGENERATED_SOURCE } from '../lib/bundler-builds.mjs';
import { cacheDir } from '../lib/load-ts.mjs';
import { pairedRow } from '../lib/paired-row.mjs';
import { runJsonChild } from '../lib/run-child.mjs';

const buildProcess = fileURLToPath(new URL('./build-process.mjs', import.meta.url));
const startupProcess = fileURLToPath(new URL('./plugin-startup-process.mjs', import.meta.url));

const BUNDLER_NAMES = {
  vite: 'Vite',
  esbuild: 'esbuild',
  webpack: 'webpack',
  rspack: 'Rspack',
  rollup: 'Rollup',
  rolldown: 'Rolldown',
  rsbuild: 'Rsbuild',
  farm: 'Farm',
  bun: 'Bun.build',
};
const VARIANTS = ['plugin', 'pregenerated'];
/** The app whose builds also have the no-op plugin's (a small app: where a floor weighs most). */
const FLOOR_APP = 'checkout';

/** The variants built of `app`, in the order of `round` (which goes first alternates). */
function variantsOf(app, round) {
  const variants = app === FLOOR_APP ? [...VARIANTS, 'noop'] : VARIANTS;
  return round % 2 === 0 ? variants : [...variants].reverse();
}

/** Cold then warm build of one variant of an app (`templates`: its folders); resolves with `{ cold, warm, bytes }`. */
async function coldAndWarm(bundler, variant, templates) {
  const work = freshAppCopy(templates[variant === 'noop' ? 'pregenerated' : variant], `${variant}-work`);
  // In the app folder, as a user runs a build: the project root of tools that have no other (the
  // plugin's disk cache under esbuild, Rollup, Rolldown, webpack and Rspack).
  // Bun builds in Bun's own runtime (`Bun.build`), started the same way.
  const child = { cwd: work, ...(HOST_BINARIES[bundler] ? { command: HOST_BINARIES[bundler] } : {}) };
  const cold = await runJsonChild(buildProcess, [bundler, variant, work], child);
  const warm = await runJsonChild(buildProcess, [bundler, variant, work], child);
  return { cold: cold.ms, warm: warm.ms, bytes: cold.bytes };
}

/** The build rows: cold and warm, per app and bundler, plugin against pre-generated. */
async function buildRows(options) {
  const apps = (await appDefinitions()).filter((app) => !options.apps || options.apps.includes(app.name));
  const bundlers = options.bundlers ?? BUNDLERS;
  const templates = new Map();
  for (const app of apps) templates.set(app.name, await writeAppTemplates(app));

  // times[app][bundler][variant] = { cold: [], warm: [], bytes }
  const times = {};
  for (let round = 0; round < options.rounds; round++) {
    // A full run of this suite takes about half an hour: say where it is.
    console.error(`  builds, round ${round + 1} of ${options.rounds}`);
    for (const app of apps) {
      for (const [index, bundler] of bundlers.entries()) {
        for (const variant of variantsOf(app.name, round + index)) {
          const { cold, warm, bytes } = await coldAndWarm(bundler, variant, templates.get(app.name));
          const slot = (((times[app.name] ??= {})[bundler] ??= {})[variant] ??= { cold: [], warm: [], bytes });
          slot.cold.push(cold);
          slot.warm.push(warm);
        }
      }
    }
  }

  const rows = [];
  const perRoundRatio = {};
  const bytes = {};
  for (const app of apps) {
    for (const bundler of bundlers) {
      const { plugin, pregenerated, noop } = times[app.name][bundler];
      bytes[`${app.name} ${bundler}`] = { plugin: plugin.bytes, pregenerated: pregenerated.bytes };
      for (const kind of ['cold', 'warm']) {
        const how = kind === 'cold' ? 'cold (new process, fresh app folder)' : 'warm (new process, second build in the same folder)';
        const measured = [['.idl through the plugin', plugin, '']];
        if (noop) measured.push(['pre-generated TS with a no-op unplugin plugin (the floor of any plugin)', noop, ' floor']);
        for (const [what, variant, suffix] of measured) {
          const { row, perRoundRatio: ratio } = pairedRow({
            group: 'build',
            metric: `${BUNDLER_NAMES[bundler]} build, ${how}, app importing ${app.label}: ${what}`,
            unit: 'ms',
            peerName: `pre-generated TS (${PREGENERATED_SOURCE[bundler]})`,
            ours: variant[kind],
            peer: pregenerated[kind],
          });
          rows.push(row);
          perRoundRatio[`${app.name} ${bundler} ${kind}${suffix}`] = ratio;
        }
      }
    }
  }
  return { rows, info: { rounds: options.rounds, apps: apps.map((app) => app.label), bundlers, javaScriptBytes: bytes, perRoundRatio } };
}

/** Plugin start-up against a no-op unplugin plugin: time (interleaved rounds) and modules loaded. */
async function startupRows(options) {
  const ms = { ours: [], noop: [] };
  for (let round = 0; round < options.startupRounds; round++) {
    const order = round % 2 === 0 ? ['ours', 'noop'] : ['noop', 'ours'];
    for (const kind of order) ms[kind].push((await runJsonChild(startupProcess, [kind, 'time'])).ms);
  }
  const logDir = path.join(cacheDir, 'plugin-startup');
  mkdirSync(logDir, { recursive: true });
  const modules = {};
  for (const kind of ['ours', 'noop']) {
    modules[kind] = (await runJsonChild(startupProcess, [kind, 'count', path.join(logDir, `${kind}.log`)])).modules;
  }
  const peerName = 'no-op plugin (unplugin createUnplugin)';
  const time = pairedRow({
    group: 'build',
    metric: 'plugin start-up: import unplugin-idl-rpc/vite and create the plugin (new process)',
    unit: 'ms',
    peerName,
    ours: ms.ours,
    peer: ms.noop,
  });
  const count = {
    group: 'build',
    metric: 'plugin start-up: module files loaded until the plugin is created (Node built-ins not counted)',
    unit: 'modules',
    peerName,
    ours: modules.ours,
    peer: modules.noop,
    higherIsBetter: false,
  };
  return { rows: [time.row, count], info: { rounds: options.startupRounds, perRoundRatio: time.perRoundRatio } };
}

/** Returns the table rows of the build suite. */
export async function runBuildSuite(options) {
  const builds = await buildRows(options);
  const startup = await startupRows(options);
  return { rows: [...builds.rows, ...startup.rows], info: { builds: builds.info, startup: startup.info } };
}
