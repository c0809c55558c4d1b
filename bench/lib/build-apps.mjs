/**
 * The apps of the build and dev suites, each in two variants that differ only in where the IDL's
 * code comes from:
 *
 * - `plugin`: the entry imports the `.idl` files; the plugin compiles and generates at build time;
 * - `pregenerated`: the entry imports what `idlrpc -plugin ts-client-server -ts-module esm-bundler`
 *   wrote ahead of time (`gen/<name>/`, TypeScript with its own copy of the runtime), and, for the
 *   bundlers without TypeScript support of their own (Rollup, webpack), the same files transpiled
 *   to JavaScript by esbuild (`gen-js/<name>/`). Both are made once, before any timing.
 *
 * Each variant is a template folder under bench/.cache/build-apps/ (inside the package, so
 * `unplugin-idl-rpc/runtime/...` resolves to dist/ by the package's own name, as in an installed
 * project); builds run on a copy (`freshAppCopy`) so a "cold" build starts from sources only.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { repoRoot } from './checkout.mjs';
import { cacheDir } from './load-ts.mjs';
import { checkoutIdl } from './ours.mjs';
import { loadSyntheticIdl } from './synthetic-idl.mjs';

const run = promisify(execFile);
const appsRoot = path.join(cacheDir, 'build-apps');
const cli = path.join(repoRoot, 'dist', 'src', 'cli', 'bin.js');

/**
 * The three apps: what they hold, as `{ name, label, idls: [{ name, text }], clientPage? }`;
 * `clientPage` (`{ idl, client }`) adds `client.html`, a page that only creates one client.
 */
export async function appDefinitions() {
  const { text: fiveHundred } = await loadSyntheticIdl(500);
  const { text: tenThousand } = await loadSyntheticIdl(10_000);
  return [
    {
      name: 'checkout',
      label: 'checkout.idl',
      idls: [{ name: 'checkout', text: checkoutIdl().text }],
      clientPage: { idl: 'checkout', client: 'CatalogServiceClient' },
    },
    {
      name: 'twenty',
      label: `20 IDL files of ${lineCount(fiveHundred)} lines`,
      idls: Array.from({ length: 20 }, (_, i) => ({ name: `api${i}`, text: distinctNames(fiveHundred, i) })),
    },
    {
      name: 'large',
      label: `one ${lineCount(tenThousand).toLocaleString('en-US')}-line IDL file`,
      idls: [{ name: 'large', text: tenThousand }],
    },
  ];
}

/**
 * The synthetic IDL with a namespace, type, interface and error names and error codes of its own
 * (`A3G0Item`, code 13001): an app's twenty files declare different things, as a real app's would,
 * so none is a copy of another and their OpenAPI documents merge without clashes.
 */
function distinctNames(text, index) {
  return text
    .replace(/^namespace synthetic$/m, `namespace synthetic${index}`)
    .replaceAll(/\b(G\d+|Failure\d+)/g, `A${index}$1`)
    .replaceAll(/^(\s+)10(\d\d) /gm, (_, indent, n) => `${indent}${10_000 + 1000 * index + Number(n)} `);
}

function lineCount(text) {
  return text.split('\n').length;
}

/**
 * The entry module: imports every IDL's whole module (a namespace import that is logged, so no
 * bundler can drop any of it) from `from(idlName)`.
 */
function entrySource(idls, from) {
  const imports = idls.map((idl, i) => `import * as api${i} from '${from(idl.name)}';`);
  return `${imports.join('\n')}\nconsole.log(${idls.map((_, i) => `api${i}`).join(', ')});\n`;
}

/** Where each variant's entry finds an IDL's code. */
const ENTRY_IMPORTS = {
  plugin: (name) => `./${name}.idl`,
  pregenerated: (name) => `./gen/${name}/index`,
  'pregenerated-js': (name) => `./gen-js/${name}/index.js`,
};

/**
 * Writes the template folders of `app` (once per run): the plugin variant's `.idl` files and entry,
 * and the pregenerated variant's `gen/` (by the built CLI), `gen-js/` (esbuild, TypeScript to
 * JavaScript file by file, imports unchanged) and entries. Both get an `index.html` for the dev
 * server. Returns `{ plugin, pregenerated }`, the template folders.
 */
export async function writeAppTemplates(app) {
  const base = path.join(appsRoot, app.name);
  rmSync(base, { recursive: true, force: true });
  const plugin = path.join(base, 'template-plugin');
  const pregenerated = path.join(base, 'template-pregenerated');
  for (const dir of [plugin, pregenerated]) mkdirSync(dir, { recursive: true });

  for (const idl of app.idls) writeFileSync(path.join(plugin, `${idl.name}.idl`), idl.text);
  writeFileSync(path.join(plugin, 'main.js'), entrySource(app.idls, ENTRY_IMPORTS.plugin));

  // The IDL files sit outside the app: a user of the CLI keeps them wherever the command reads them.
  const idlSources = path.join(base, 'idl');
  mkdirSync(idlSources, { recursive: true });
  for (const idl of app.idls) {
    const idlFile = path.join(idlSources, `${idl.name}.idl`);
    writeFileSync(idlFile, idl.text);
    const outDir = path.join(pregenerated, 'gen', idl.name);
    await run(process.execPath, [cli, '-plugin', 'ts-client-server', '-ts-module', 'esm-bundler', '-dir', outDir, idlFile], {
      cwd: repoRoot,
    });
  }
  await transpileTree(path.join(pregenerated, 'gen'), path.join(pregenerated, 'gen-js'));
  writeFileSync(path.join(pregenerated, 'main.js'), entrySource(app.idls, ENTRY_IMPORTS.pregenerated));
  writeFileSync(path.join(pregenerated, 'main-js.js'), entrySource(app.idls, ENTRY_IMPORTS['pregenerated-js']));

  for (const dir of [plugin, pregenerated]) writeFileSync(path.join(dir, 'index.html'), htmlPage('/main.js'));
  // Each app is a project of its own, as a user's is: tools that keep a cache in the project's
  // node_modules/.cache (the plugin's compile cache among them) keep it in the app folder, so a
  // fresh copy starts without one. `type` and `sideEffects` as in the repository's package.json,
  // which was the nearest one before, so that the bundlers see the same.
  const manifest = `${JSON.stringify({ name: `bench-${app.name}`, private: true, type: 'module', sideEffects: false }, null, 2)}\n`;
  for (const dir of [plugin, pregenerated]) writeFileSync(path.join(dir, 'package.json'), manifest);
  if (app.clientPage) {
    const { idl, client } = app.clientPage;
    // The leanest imports each variant allows: the generated directory's client module and the
    // client part of its runtime copy; the plugin serves one module per .idl.
    writeFileSync(path.join(plugin, 'client.js'), clientEntry(client, `./${idl}.idl`, 'unplugin-idl-rpc/runtime/client'));
    writeFileSync(path.join(pregenerated, 'client.js'), clientEntry(client, `./gen/${idl}/client`, `./gen/${idl}/runtime/client`));
    for (const dir of [plugin, pregenerated]) writeFileSync(path.join(dir, 'client.html'), htmlPage('/client.js'));
  }
  return { plugin, pregenerated };
}

function htmlPage(script) {
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>bench</title></head>\n<body><script type="module" src="${script}"></script></body></html>\n`;
}

/** A module that creates one client and then says so (`benchClientReady`), so a test can tell it ran. */
function clientEntry(client, clientModule, runtimeClientModule) {
  return `import { ${client} } from '${clientModule}';
import { HttpTransport } from '${runtimeClientModule}';
globalThis.benchClient = new ${client}(new HttpTransport('/rpc'));
globalThis.benchClientReady = true;
`;
}

/** Every `.ts` file under `from` as `.js` under `to` (esbuild transform, ES2022, imports kept as written). */
async function transpileTree(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(to, path.relative(from, source));
    mkdirSync(path.dirname(target), { recursive: true });
    if (!entry.name.endsWith('.ts')) {
      cpSync(source, target);
      continue;
    }
    const { code } = await transform(readFileSync(source, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: source });
    writeFileSync(target.replace(/\.ts$/, '.js'), code);
  }
}

/**
 * A fresh copy of a template in `<app>/<variant>-work/`: the folder is deleted first, so nothing a
 * previous build left (output, `.idl.d.ts`, `node_modules/.vite` or any other cache kept in the
 * app) survives. Returns the copy's path.
 */
export function freshAppCopy(template, workName) {
  const work = path.join(path.dirname(template), workName);
  rmSync(work, { recursive: true, force: true });
  cpSync(template, work, { recursive: true });
  return work;
}
