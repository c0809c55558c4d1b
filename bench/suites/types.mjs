/**
 * Type-checking the generated code: `tsc --strict --noEmit --extendedDiagnostics` (its own total
 * time and memory) with the project's TypeScript 7 and with TypeScript 6 (what editors run), on
 *
 * - GitHub's REST API as IDL (bench/lib/github-idl.mjs, 3,505 structs; full runs only): an app
 *   importing `github.idl` through the `.idl.d.ts` that `idlrpc -dts` writes, and the output
 *   directory of `idlrpc -plugin ts-client-server` (types, validators, client, server), each against
 *   an app importing openapi-typescript's types of the same document (the peer);
 * - synthetic IDLs (bench/lib/synthetic-idl.mjs) of 1,000, 5,000 and 20,000 structs: each size
 *   against the previous one scaled linearly (a ratio near 1 is linear growth).
 *
 * With the GitHub rows, TypeScript 6's tsserver answers `completionInfo` after `repository.` in
 * each GitHub app (a struct's members: `Repository` from `github.idl` against openapi-typescript's
 * `components['schemas']['repository']`), timed by bench/lib/tsserver-completion.mjs.
 *
 * Every run is a fresh `tsc` process; figures are medians over rounds. The project's
 * node_modules resolve `unplugin-idl-rpc/runtime/...` (the package refers to itself), so the
 * work directory is bench/.cache/types-suite.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../lib/checkout.mjs';
import { fetchGithubOpenApi, loadGithubIdl } from '../lib/github-idl.mjs';
import { cacheDir } from '../lib/load-ts.mjs';
import { median } from '../lib/stats.mjs';
import { loadSyntheticIdlOfStructs } from '../lib/synthetic-idl.mjs';
import { timeCompletions } from '../lib/tsserver-completion.mjs';

const run = promisify(execFile);
const workDir = path.join(cacheDir, 'types-suite');
const cli = path.join(repoRoot, 'dist', 'src', 'cli', 'bin.js');

/** The two compilers: the project's TypeScript 7 (native) and TypeScript 6, which editors run. */
const COMPILERS = [
  { name: 'TypeScript 7.0.2', command: [path.join(repoRoot, 'node_modules', '.bin', 'tsc')] },
  { name: 'TypeScript 6.0.3', command: [process.execPath, path.join(repoRoot, 'node_modules', 'typescript-6', 'bin', 'tsc')] },
];
const OPENAPI_TYPESCRIPT = path.join(repoRoot, 'test', 'openapi-generators', 'node_modules', '.bin', 'openapi-typescript');

/** The compiler options of the generated tsconfig.json (`-ts-gen-tsconfig`), for the apps too. */
const STRICT = { target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, skipLibCheck: true, noEmit: true };

/** `tsc -p <dir> --noEmit --extendedDiagnostics`: its total time (ms), memory (MB), types and instantiations. */
async function typeCheck(compiler, dir) {
  const [file, ...args] = compiler.command;
  const { stdout } = await run(file, [...args, '-p', dir, '--noEmit', '--extendedDiagnostics'], {
    maxBuffer: 16 << 20,
    timeout: 1_800_000,
  }).catch((error) => {
    throw new Error(`tsc failed on ${path.relative(repoRoot, dir)}:\n${String(error.stdout).slice(0, 2000)}`);
  });
  const figure = (label) => {
    const found = new RegExp(`^${label}:\\s+([0-9.]+)([a-zA-Z]*)`, 'm').exec(stdout);
    if (!found) throw new Error(`no "${label}" in the output of tsc on ${dir}`);
    return Number(found[1]);
  };
  return {
    ms: figure('Total time') * 1000,
    mb: figure('Memory used') / 1024,
    types: figure('Types'),
    instantiations: figure('Instantiations'),
  };
}

function writeProject(dir, files, compilerOptions) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...STRICT, ...compilerOptions }, files: ['app.ts'] }, null, 2),
  );
}

/** An app importing `<name>.idl` through the `.idl.d.ts` that `idlrpc -dts` writes. */
async function declarationApp(name, idl, app) {
  const dir = path.join(workDir, `${name}-dts`);
  writeProject(dir, { [`${name}.idl`]: idl, 'app.ts': app }, { module: 'Preserve', moduleResolution: 'Bundler' });
  await run(process.execPath, [cli, '-dts', '-no-map', path.join(dir, `${name}.idl`)], { maxBuffer: 16 << 20 });
  return dir;
}

/** The output directory of `idlrpc -plugin ts-client-server` with its generated tsconfig.json. */
async function outputDirectory(name, idl) {
  const dir = path.join(workDir, `${name}-out`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const idlFile = path.join(workDir, `${name}.idl`);
  writeFileSync(idlFile, idl);
  await run(process.execPath, [cli, '-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', idlFile], { maxBuffer: 16 << 20 });
  return dir;
}

/**
 * An app importing the output directory of `idlrpc -plugin ts-client-server -ts-emit js+dts`
 * (JavaScript and declarations) as `./gen/index.js`.
 */
async function jsDtsApp(name, idl, app) {
  const dir = path.join(workDir, `${name}-js-dts`);
  writeProject(dir, { 'app.ts': app }, { module: 'NodeNext', moduleResolution: 'NodeNext' });
  const idlFile = path.join(workDir, `${name}.idl`);
  writeFileSync(idlFile, idl);
  const args = [cli, '-plugin', 'ts-client-server', '-dir', path.join(dir, 'gen'), '-ts-emit', 'js+dts', idlFile];
  await run(process.execPath, args, { maxBuffer: 16 << 20 });
  return dir;
}

/** An app importing openapi-typescript's types of GitHub's document (generated once into the work directory). */
async function openApiTypeScriptApp() {
  const dir = path.join(workDir, 'github-openapi-typescript');
  const schema = path.join(workDir, 'github-openapi-typescript.ts');
  if (!existsSync(schema)) {
    const document = await fetchGithubOpenApi();
    mkdirSync(workDir, { recursive: true });
    await run(OPENAPI_TYPESCRIPT, [document, '-o', schema], { maxBuffer: 16 << 20, timeout: 600_000 });
  }
  const app = [
    "import type { components, paths } from './schema.js';",
    "export type Repository = components['schemas']['repository'];",
    'export const name = (repository: Repository) => repository.full_name;',
    "export type Get = paths['/repos/{owner}/{repo}']['get'];",
    '',
  ].join('\n');
  writeProject(dir, { 'app.ts': app }, { module: 'NodeNext', moduleResolution: 'NodeNext' });
  const { copyFileSync } = await import('node:fs');
  copyFileSync(schema, path.join(dir, 'schema.ts'));
  return dir;
}

const GITHUB_APP = [
  "import { reposClient, type Repository } from './github.idl';",
  'export const client: typeof reposClient = reposClient;',
  'export const name = (repository: Repository) => repository.fullName;',
  '',
].join('\n');

/** GITHUB_APP against the output directory written as JavaScript and declarations. */
const GITHUB_JS_DTS_APP = GITHUB_APP.replace("from './github.idl'", "from './gen/index.js'");

const SYNTHETIC_APP = (name) =>
  [
    `import { G0ServiceClient, type G0Item } from './${name}.idl';`,
    'export const client: typeof G0ServiceClient = G0ServiceClient;',
    'export const quantity = (item: G0Item) => item.quantity;',
    '',
  ].join('\n');

/** Median time and memory of `rounds` type-checks, with the last run's counts. */
async function measure(compiler, dir, rounds) {
  const runs = [];
  for (let round = 0; round < rounds; round++) runs.push(await typeCheck(compiler, dir));
  const last = runs.at(-1);
  return { ms: median(runs.map((r) => r.ms)), mb: median(runs.map((r) => r.mb)), types: last.types, instantiations: last.instantiations };
}

function pairRows(metric, ours, peer, peerName) {
  return [
    { group: 'types', metric: `${metric}, tsc total time`, unit: 'ms', ours: ours.ms, peerName, peer: peer.ms, higherIsBetter: false },
    { group: 'types', metric: `${metric}, tsc memory used`, unit: 'MB', ours: ours.mb, peerName, peer: peer.mb, higherIsBetter: false },
  ];
}

/**
 * tsserver (TypeScript 6) completion after `repository.` in the app importing `github.idl` against
 * the app importing openapi-typescript's types: the first request (which builds the checker), warm
 * requests, and requests after an edit of the file (each keystroke in an editor), in ms.
 */
async function completionRows(dtsDir, peerDir, rounds, servers, peerName, info) {
  // A fresh tsserver per measurement, ours and the peer's alternating, so load swings hit both.
  const runs = { ours: [], peer: [] };
  for (let server = 0; server < servers; server++) {
    runs.ours.push(await timeCompletions(path.join(dtsDir, 'app.ts'), 'repository.', rounds));
    runs.peer.push(await timeCompletions(path.join(peerDir, 'app.ts'), 'repository.', rounds));
  }
  const medians = (list) => Object.fromEntries(['first', 'warm', 'afterEdit'].map((key) => [key, median(list.map((r) => r[key]))]));
  const ours = { ...medians(runs.ours), entries: runs.ours[0].entries };
  const peer = { ...medians(runs.peer), entries: runs.peer[0].entries };
  info['github tsserver completion TypeScript 6.0.3'] = { ours, peer };
  const metric = (when) => `TypeScript 6.0.3 tsserver: completion of a struct's members in an app importing GitHub's IDL, ${when}`;
  return [
    [`first request (median of ${servers} servers)`, 'first'],
    [`warm (median of ${rounds} requests, median of ${servers} servers)`, 'warm'],
    [`after an edit of the file (median of ${rounds}, median of ${servers} servers)`, 'afterEdit'],
  ].map(([when, key]) => ({
    group: 'types',
    metric: metric(when),
    unit: 'ms',
    ours: ours[key],
    peerName,
    peer: peer[key],
    higherIsBetter: false,
  }));
}

/**
 * Returns the rows of the type-check suite. `options`: `rounds`, `github` (the GitHub rows: full
 * runs only), `githubCompletion` (also tsserver's completion latency in the GitHub apps, over
 * `completionRounds` requests in each of `completionServers` fresh tsservers), `githubOutputDirectory` (also its output directory: a minute or more of `tsc`), `syntheticSizes` (structs) and `outputDirectorySizes` (the sizes
 * whose output directory is also checked; the others check the `.idl.d.ts` app alone).
 */
export async function runTypesSuite(options) {
  const rows = [];
  const info = {};
  if (options.github) {
    const idl = loadGithubIdl();
    const peerDir = await openApiTypeScriptApp();
    const peerName = 'openapi-typescript 7.13.0 types of the same document';
    const dtsDir = await declarationApp('github', idl, GITHUB_APP);
    for (const compiler of COMPILERS) {
      const peer = await measure(compiler, peerDir, options.rounds);
      const ours = await measure(compiler, dtsDir, options.rounds);
      info[`github .idl.d.ts ${compiler.name}`] = { ours, peer };
      rows.push(...pairRows(`${compiler.name}: app importing GitHub's IDL (3,505 structs) via its .idl.d.ts`, ours, peer, peerName));
    }
    if (options.githubCompletion)
      rows.push(...(await completionRows(dtsDir, peerDir, options.completionRounds, options.completionServers, peerName, info)));
    if (options.githubOutputDirectory) {
      const outDir = await outputDirectory('github', idl);
      const compiler = COMPILERS[0];
      const peer = await measure(compiler, peerDir, 1);
      const ours = await measure(compiler, outDir, 1);
      info[`github output directory ${compiler.name}`] = { ours, peer };
      rows.push(...pairRows(`${compiler.name}: GitHub's IDL, output directory of -plugin ts-client-server`, ours, peer, peerName));
      // The same output as JavaScript and declarations: what an app importing it type-checks.
      const jsDtsDir = await jsDtsApp('github', idl, GITHUB_JS_DTS_APP);
      for (const each of COMPILERS) {
        const peerOfEach = each === compiler ? peer : await measure(each, peerDir, options.rounds);
        const oursOfEach = await measure(each, jsDtsDir, options.rounds);
        info[`github output directory js+dts ${each.name}`] = { ours: oursOfEach, peer: peerOfEach };
        const metric = `${each.name}: app importing GitHub's IDL's output directory written with -ts-emit js+dts`;
        rows.push(...pairRows(metric, oursOfEach, peerOfEach, peerName));
      }
    }
  }
  let previous;
  for (const structs of options.syntheticSizes) {
    const { text } = await loadSyntheticIdlOfStructs(structs);
    const name = `synthetic${structs}`;
    const label = `${structs.toLocaleString('en-US')} structs`;
    const dirs = [['.idl.d.ts app', await declarationApp(name, text, SYNTHETIC_APP(name))]];
    if (options.outputDirectorySizes.includes(structs)) dirs.push(['output directory', await outputDirectory(name, text)]);
    const figures = {};
    for (const [kind, dir] of dirs) {
      const ours = await measure(COMPILERS[0], dir, kind === 'output directory' ? 1 : options.rounds);
      figures[kind] = ours;
      info[`${label} ${kind}`] = ours;
      const smaller = previous?.figures[kind];
      const scale = smaller ? structs / previous.structs : undefined;
      rows.push({
        group: 'types',
        metric: `${COMPILERS[0].name}: synthetic IDL of ${label}, ${kind}, tsc total time`,
        unit: 'ms',
        ours: ours.ms,
        peerName: smaller ? `linear: ${scale} x ${previous.structs.toLocaleString('en-US')} structs` : undefined,
        peer: smaller ? scale * smaller.ms : null,
        higherIsBetter: false,
        note: smaller ? undefined : 'no peer',
      });
    }
    previous = { structs, figures };
  }
  return { rows, info };
}
