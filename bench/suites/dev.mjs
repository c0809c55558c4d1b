/**
 * The Vite dev server with the plugin against the same app importing pre-generated TypeScript
 * (bench/lib/build-apps.mjs), each server in a fresh process on a fresh copy of the app
 * (bench/suites/dev-process.mjs): start until the IDL's code is served, an edit until the edited
 * module is served again, the modules a client-only page loads, and the server's memory after many
 * edits of a 10,000-line IDL. Timing rounds are interleaved and alternate which variant goes first.
 */
import { fileURLToPath } from 'node:url';
import { appDefinitions, freshAppCopy, writeAppTemplates } from '../lib/build-apps.mjs';
import { median } from '../lib/stats.mjs';
import { pairedRow } from '../lib/paired-row.mjs';
import { runJsonChild } from '../lib/run-child.mjs';

const devProcess = fileURLToPath(new URL('./dev-process.mjs', import.meta.url));
const VARIANTS = ['plugin', 'pregenerated'];

/** What each variant serves and edits for the IDL named `idl` (`idlEdit`: the plugin's edit kind, see dev-process.mjs). */
function variantJob(variant, idl, idlEdit = 'idl') {
  return variant === 'plugin'
    ? { entryUrl: `/${idl}.idl?import`, editFile: `${idl}.idl`, editedUrl: `/${idl}.idl?import`, editKind: idlEdit }
    : { entryUrl: `/gen/${idl}/index.ts`, editFile: `gen/${idl}/types.ts`, editedUrl: `/gen/${idl}/types.ts`, editKind: 'ts' };
}

/** The edit rows' words for each kind of edit of the .idl. */
const IDL_EDITS = {
  idl: 'struct appended to the .idl',
  'idl-field': 'field added to the struct in the middle of the .idl (one the methods reach)',
};

/** Runs one dev-server job on a fresh copy of `template`. */
function devJob(template, variant, job, nodeArgs = []) {
  const appDir = freshAppCopy(template, `${variant}-dev`);
  const editFile = job.editFile ? `${appDir}/${job.editFile}` : undefined;
  return runJsonChild(devProcess, [JSON.stringify({ ...job, variant, appDir, editFile })], { nodeArgs });
}

/**
 * Start and edit rows for one app: `{ rows, info }`. `idlEdits`: the kinds of edit of the .idl
 * timed, each against the same edit of pre-generated TypeScript, each in its own servers.
 */
async function startAndEditRows(app, template, options, idlEdits = ['idl']) {
  const idl = app.idls[0].name;
  const start = { plugin: [], pregenerated: [] };
  const edit = Object.fromEntries(idlEdits.map((kind) => [kind, { plugin: [], pregenerated: [] }]));
  const modules = {};
  const restarts = { plugin: 0, pregenerated: 0 };
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
    for (const kind of idlEdits) {
      for (const variant of order) {
        const job = { mode: 'timing', ...variantJob(variant, idl, kind), edits: options.edits };
        const result = await devJob(template[variant], variant, job);
        if (kind === idlEdits[0]) start[variant].push(result.startMs);
        edit[kind][variant].push(median(result.editMs));
        modules[variant] = result.modules;
        restarts[variant] += result.restarts;
      }
    }
  }
  const startRow = pairedRow({
    group: 'dev',
    metric: `Vite dev server, ${app.label}: new process until the .idl module and every module it imports are served`,
    unit: 'ms',
    peerName: 'pre-generated gen/index.ts and every module it imports',
    ours: start.plugin,
    peer: start.pregenerated,
  });
  const editRows = idlEdits.map((kind) =>
    pairedRow({
      group: 'dev',
      metric: `Vite dev server, ${app.label}: ${IDL_EDITS[kind]} until its module is served with it`,
      unit: 'ms',
      peerName: 'line appended to pre-generated gen/types.ts until served with it',
      ours: edit[kind].plugin,
      peer: edit[kind].pregenerated,
    }),
  );
  return {
    rows: [startRow.row, ...editRows.map((row) => row.row)],
    info: {
      modulesServed: modules,
      optimizerRestarts: restarts,
      perRoundRatio: { start: startRow.perRoundRatio, ...Object.fromEntries(idlEdits.map((kind, i) => [kind, editRows[i].perRoundRatio])) },
    },
  };
}

/** Modules a client-only page loads (one client created), in Chromium or from the module graph. */
async function pageRow(app, template) {
  const counts = {};
  let method;
  for (const variant of VARIANTS) {
    const result = await devJob(template[variant], variant, { mode: 'page', entryUrl: '/client.html' });
    counts[variant] = result.modules;
    method = result.method;
  }
  return {
    group: 'dev',
    metric: `Vite dev server, client-only page creating one ${app.clientPage.client}: JavaScript modules loaded (counted in ${method})`,
    unit: 'modules',
    peerName: 'pre-generated gen/client.ts + gen/runtime/client.ts',
    ours: counts.plugin,
    peer: counts.pregenerated,
    higherIsBetter: false,
  };
}

/** Resident memory of the dev server after `memoryEdits` edits, after GC: `{ row, info }`. */
async function memoryRow(app, template, options) {
  const idl = app.idls[0].name;
  const rss = { plugin: [], pregenerated: [] };
  const before = { plugin: [], pregenerated: [] };
  for (let round = 0; round < options.memoryRounds; round++) {
    const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const job = { mode: 'memory', ...variantJob(variant, idl), edits: options.memoryEdits };
      const result = await devJob(template[variant], variant, job, ['--expose-gc']);
      rss[variant].push(result.rssMb);
      before[variant].push(result.rssBeforeEditsMb);
    }
  }
  const { row, perRoundRatio } = pairedRow({
    group: 'dev',
    metric: `Vite dev server RSS after ${options.memoryEdits} edits of ${app.label}, each served, after GC`,
    unit: 'MB',
    peerName: `${options.memoryEdits} edits of its pre-generated gen/types.ts`,
    ours: rss.plugin,
    peer: rss.pregenerated,
  });
  return { row, info: { rssBeforeEditsMb: { plugin: median(before.plugin), pregenerated: median(before.pregenerated) }, perRoundRatio } };
}

/** Returns the table rows of the dev suite. */
export async function runDevSuite(options) {
  const apps = await appDefinitions();
  const checkout = apps.find((app) => app.name === 'checkout');
  const large = apps.find((app) => app.name === 'large');
  const templates = new Map();
  for (const app of [checkout, large]) templates.set(app.name, await writeAppTemplates(app));

  const rows = [];
  const info = { rounds: options.rounds, editsPerProcess: options.edits };
  for (const app of [checkout, large]) {
    // The large IDL is also edited where reuse helps least: a struct the methods reach.
    const result = await startAndEditRows(app, templates.get(app.name), options, app === large ? ['idl', 'idl-field'] : ['idl']);
    rows.push(...result.rows);
    info[app.name] = result.info;
  }
  rows.push(await pageRow(checkout, templates.get('checkout')));
  const memory = await memoryRow(large, templates.get('large'), options);
  rows.push(memory.row);
  info.memory = { rounds: options.memoryRounds, ...memory.info };
  return { rows, info };
}
