/**
 * Next.js builds with the plugin (`withIdlRpc`, the app importing `greeter.idl`) against the same
 * app importing the TypeScript that `idlrpc -plugin ts-client-server` pre-generated, with Turbopack
 * and with webpack: `next build` (type check included) from a clean `.next` (cold) and again over
 * the first build's `.next` (warm), wall time, rounds interleaved. Each app is a fresh folder with
 * the packed package installed, as the tests make them (test/hosts/fresh-app.ts).
 *
 * Not in the default run (a Next.js build takes 10-40 s here): `npm run bench -- --only next`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { repoRoot } from '../lib/checkout.mjs';
import { importTypeScript } from '../lib/load-ts.mjs';
import { pairedRow } from '../lib/paired-row.mjs';

const run = promisify(execFile);
const BUNDLERS = ['turbopack', 'webpack'];

/**
 * The fixture's imports of `greeter.idl` and of the runtime, and what the pre-generated app imports
 * instead: the generated module and the runtime copied beside it (one runtime in the app).
 */
const IMPORT_REWRITES = [
  ['app/client-greeting.tsx', "'../greeter.idl'", "'../gen/index'"],
  ['app/client-greeting.tsx', "'unplugin-idl-rpc/runtime/client'", "'../gen/runtime/client'"],
  ['app/rpc/[[...path]]/route.ts', "'../../../greeter.idl'", "'../../../gen/index'"],
  ['app/rpc/[[...path]]/route.ts', "'unplugin-idl-rpc/runtime/core'", "'../../../gen/runtime/core'"],
  ['handlers.ts', "'./greeter.idl'", "'./gen/index'"],
];

/** The plain config of the pre-generated app: the fixture's, without the plugin. */
const PLAIN_CONFIG = `const root = process.env.IDLRPC_NEXT_ROOT;
export default root ? { turbopack: { root }, outputFileTracingRoot: root } : {};
`;

/** Turns a fresh copy of the fixture into the app importing pre-generated TypeScript. */
async function pregenerate(dir) {
  const cli = path.join(dir, 'node_modules', '.bin', 'idlrpc');
  await run(cli, ['-plugin', 'ts-client-server', '-dir', 'gen', '-ts-module', 'esm-bundler', 'greeter.idl'], { cwd: dir });
  for (const [file, from, to] of IMPORT_REWRITES) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    if (!source.includes(from)) throw new Error(`${file} of the Next.js fixture no longer imports ${from}`);
    writeFileSync(path.join(dir, file), source.replace(from, to));
  }
  writeFileSync(path.join(dir, 'next.config.mjs'), PLAIN_CONFIG);
}

/** Wall time (ms) of one `next build`; a failed build stops the suite with its output. */
async function timedBuild(nextBuild, dir, bundler) {
  const started = performance.now();
  const outcome = await nextBuild(dir, bundler);
  if (!outcome.ok) throw new Error(`next build (${bundler}) failed in ${dir}:\n${outcome.output.slice(-3000)}`);
  return performance.now() - started;
}

/** Returns the suite's rows: cold and warm per bundler, plugin against pre-generated. */
export async function runNextBuildSuite(options) {
  // Bundled into bench/.cache, these modules would find the repository from there: they (and the
  // test helpers they import, all two folders deep) are given their own place instead.
  const hosts = path.join(repoRoot, 'test', 'hosts');
  const asIfIn = (file) => ({ 'import.meta.url': JSON.stringify(pathToFileURL(path.join(hosts, file)).href) });
  const { createFreshApp } = await importTypeScript(path.join(hosts, 'fresh-app.ts'), [], asIfIn('fresh-app.ts'));
  const { nextBuild } = await importTypeScript(path.join(hosts, 'next-app-runner.ts'), [], asIfIn('next-app-runner.ts'));
  const apps = { plugin: await createFreshApp('next-app'), pregenerated: await createFreshApp('next-app') };
  await pregenerate(apps.pregenerated.dir);
  const times = {};
  try {
    for (const bundler of BUNDLERS) {
      for (const kind of ['cold', 'warm']) for (const variant of Object.keys(apps)) times[`${bundler} ${kind} ${variant}`] = [];
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? ['plugin', 'pregenerated'] : ['pregenerated', 'plugin'];
        for (const variant of order) {
          const { dir } = apps[variant];
          rmSync(path.join(dir, '.next'), { recursive: true, force: true });
          times[`${bundler} cold ${variant}`].push(await timedBuild(nextBuild, dir, bundler));
          times[`${bundler} warm ${variant}`].push(await timedBuild(nextBuild, dir, bundler));
        }
      }
    }
  } finally {
    for (const app of Object.values(apps)) app.remove();
  }
  const rows = [];
  const info = {};
  for (const bundler of BUNDLERS) {
    for (const kind of ['cold', 'warm']) {
      const metric = `Next.js 16 next build (${bundler}), ${kind === 'cold' ? 'clean .next' : 'over the previous build'}: app importing greeter.idl (withIdlRpc)`;
      const { row, perRoundRatio } = pairedRow({
        group: 'build',
        metric,
        unit: 'ms',
        peerName: 'the same app importing pre-generated TypeScript',
        ours: times[`${bundler} ${kind} plugin`],
        peer: times[`${bundler} ${kind} pregenerated`],
      });
      rows.push(row);
      info[`${bundler} ${kind}`] = perRoundRatio;
    }
  }
  return { rows, info };
}
