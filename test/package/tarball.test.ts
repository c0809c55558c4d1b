/**
 * The package as a user gets it: `npm pack`, then the tarball
 * installed into an empty project. The install must be clean (no lifecycle script for npm to refuse),
 * the tarball must carry the license and the docs the README links to, and every entry of the
 * exports map, the types it names and the `idlrpc` bin must work from there.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/run-cli.js';
import { tempFolder } from '../hostile/harness.js';
import { packPackage } from './pack.js';

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | { types?: string; default: string }>;
};

/** Entries that run only in Bun (`Bun.build`, `Bun.plugin`): imported with Bun's binary below. */
const BUN_ONLY_ENTRIES = ['./bun', './bun/preload'];

const project = tempFolder('idlrpc-tarball-');
const installed = join(project.dir, 'node_modules', manifest.name);
let installOutput = '';

beforeAll(async () => {
  const filename = basename(await packPackage(project.dir));
  writeFileSync(
    join(project.dir, 'package.json'),
    JSON.stringify({ name: 'tarball-user', version: '1.0.0', type: 'module', private: true }),
  );
  // The dependencies are in npm's cache after the repository's own install.
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${filename}`], {
    cwd: project.dir,
    timeout: 180_000,
  });
  installOutput = `${install.stdout}${install.stderr}`;
}, 300_000);

afterAll(() => project.remove());

describe('the packed package installed into an empty project', () => {
  it('installs without a lifecycle script for npm to refuse', () => {
    expect(installOutput).not.toMatch(/install-scripts|prepare|postinstall/);
    const scripts = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
  });

  it('carries the license, the README, and every file the README and the docs link to', () => {
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const pages = ['README.md', ...readdirSync(join(installed, 'docs')).map((name) => `docs/${name}`)];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(join(installed, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#:\s]+)(?:#[^)]*)?\)/g)) {
        links++;
        expect(existsSync(join(installed, dirname(page), target)), `${page} -> ${target}`).toBe(true);
      }
    }
    expect(links).toBeGreaterThan(10);
  });

  it('imports every entry of the exports map, and finds the types each names', async () => {
    const entries = Object.keys(manifest.exports).filter((key) => key !== './package.json' && !BUN_ONLY_ENTRIES.includes(key));
    for (const key of entries) {
      const target = manifest.exports[key];
      if (typeof target === 'object' && target.types) expect(existsSync(join(installed, target.types)), target.types).toBe(true);
    }
    const script = `
      const out = {};
      for (const entry of ${JSON.stringify(entries.map((key) => manifest.name + key.slice(1)))}) {
        // runtime/msw imports its optional peer msw, which this project does not install.
        const module = await import(entry).catch((error) => (entry.endsWith('/runtime/msw') ? { needs: String(error.message) } : Promise.reject(error)));
        out[entry] = typeof module.default === 'function' ? typeof module.default() : Object.keys(module).length;
      }
      console.log(JSON.stringify(out));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project.dir });
    const loaded = JSON.parse(stdout) as Record<string, number | string>;
    expect(Object.keys(loaded)).toHaveLength(entries.length);
    for (const bundler of ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack', 'rsbuild', 'farm'])
      expect(loaded[`${manifest.name}/${bundler}`]).toBe('object');
    expect(loaded[`${manifest.name}/runtime/client`]).toBeGreaterThan(0);
    expect(loaded[`${manifest.name}/runtime/mock`]).toBeGreaterThan(0);
  });

  it('imports the Bun entries in Bun: the plugin and the runtime preload', async () => {
    const script = `
      await import('${manifest.name}/bun/preload');
      const { default: idlRpc, idlRpcRuntime } = await import('${manifest.name}/bun');
      console.log(JSON.stringify({ build: typeof idlRpc().setup, runtime: idlRpcRuntime().target }));`;
    const { stdout } = await run(join(REPO_ROOT, 'node_modules/.bin/bun'), ['-e', script], { cwd: project.dir });
    expect(JSON.parse(stdout)).toEqual({ build: 'function', runtime: 'bun' });
    for (const key of BUN_ONLY_ENTRIES) expect(Object.keys(manifest.exports)).toContain(key);
  });

  it('serves the API reference page from the installed files, and says what to install without the optional viewer', async () => {
    const script = `
      import { createRpcServer, listen } from 'unplugin-idl-rpc/runtime';
      import { createDocsPage } from 'unplugin-idl-rpc/runtime/docs-page';
      const idl = { rootNamespace: 'shop', checksum: 'x', interfaces: [{ name: 'Shop', namespace: 'shop', methods: [{ name: 'ping', returnType: { builtIn: 'string' } }] }] };
      const server = await listen(createRpcServer({ idl, handlers: { Shop: { ping: () => 'pong' } } }), { port: 0, host: '127.0.0.1', docsPage: createDocsPage() });
      const base = 'http://127.0.0.1:' + server.address().port + '/__idl/docs';
      const page = await (await fetch(base)).text();
      const consoleScript = await fetch(base + '/assets/console.js');
      console.log(JSON.stringify({ page, consoleScript: consoleScript.status, type: consoleScript.headers.get('content-type') }));
      server.close();`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project.dir });
    const served = JSON.parse(stdout) as { page: string; consoleScript: number; type: string };
    expect(served.page).toContain('npm install swagger-ui-dist');
    expect(served.consoleScript).toBe(200);
    expect(served.type).toBe('text/javascript; charset=utf-8');
  });

  it('serves calls without OpenTelemetry installed (an optional peer); the tracing adapter says what is missing', async () => {
    expect(existsSync(join(project.dir, 'node_modules', '@opentelemetry'))).toBe(false);
    const script = `
      import { createRpcServer, listen } from '${manifest.name}/runtime';
      import { openTelemetryTracing } from '${manifest.name}/runtime/adapters/opentelemetry';
      const idl = { rootNamespace: 'shop', checksum: 'c', interfaces: [{ name: 'Shop', namespace: 'shop', methods: [{ name: 'ping', returnType: { builtIn: 'string' } }] }] };
      const server = await listen(createRpcServer({ idl, handlers: { Shop: { ping: () => 'pong' } } }), { port: 0, host: '127.0.0.1' });
      const response = await fetch('http://127.0.0.1:' + server.address().port, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'Shop.ping' }),
      });
      const answer = await response.json();
      await server.shutdown();
      const tracing = await openTelemetryTracing().then(() => 'loaded', (error) => error.message);
      console.log(JSON.stringify({ answer, tracing }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project.dir });
    expect(JSON.parse(stdout)).toEqual({
      answer: { jsonrpc: '2.0', result: 'pong', id: 1 },
      tracing: 'openTelemetryTracing needs @opentelemetry/api: npm install @opentelemetry/api',
    });
  });

  it('runs the idlrpc bin through npx, double-dash flags and all', async () => {
    writeFileSync(join(project.dir, 'shop.idl'), 'namespace shop\n\ninterface Shop {\n    ping() string\n}\n');
    const help = await run('npx', ['--no-install', 'idlrpc', '--help'], { cwd: project.dir });
    expect(help.stdout).toContain('idlrpc -validate <file.idl>');
    const validated = await run('npx', ['--no-install', 'idlrpc', '--validate', 'shop.idl'], { cwd: project.dir });
    expect(validated.stderr).not.toMatch(/error/);
  });

  it('generates the Python client package with the installed idlrpc (-plugin py-client)', async () => {
    writeFileSync(join(project.dir, 'shop.idl'), 'namespace shop\n\ninterface Shop {\n    ping() string\n}\n');
    await run('npx', ['--no-install', 'idlrpc', '-plugin', 'py-client', '-dir', 'py', 'shop.idl'], { cwd: project.dir });
    expect(readdirSync(join(project.dir, 'py', 'shop')).sort()).toEqual(['__init__.py', 'py.typed', 'rpc_runtime.py']);
    expect(readFileSync(join(project.dir, 'py', 'shop', '__init__.py'), 'utf8')).toContain('    def ping(self) -> str:');
    expect(readFileSync(join(project.dir, 'py', 'shop', 'rpc_runtime.py'), 'utf8')).toContain('class Transport:');
  });

  it('generates the Go client with the installed idlrpc (-plugin go-client)', async () => {
    writeFileSync(join(project.dir, 'go-shop.idl'), 'namespace shop\n\ninterface Shop {\n    ping() string\n}\n');
    const args = ['--no-install', 'idlrpc', '-plugin', 'go-client', '-dir', 'go-out', '-go-module', 'example.com/shop', 'go-shop.idl'];
    await run('npx', args, { cwd: project.dir });
    expect(readFileSync(join(project.dir, 'go-out', 'shop', 'client.go'), 'utf8')).toContain(
      'func NewShopClient(baseURL string, opts ...Option) *ShopClient',
    );
    expect(existsSync(join(project.dir, 'go-out', 'idlrpc', 'idlrpc.go'))).toBe(true);
  });

  it('sets up Next.js from the next entry, its loader a file of the installed package', async () => {
    const script = `
      import { withIdlRpc } from '${manifest.name}/next';
      const config = withIdlRpc({ reactStrictMode: true });
      const rule = config.turbopack.rules['*.idl'];
      console.log(JSON.stringify({ as: rule.as, loader: rule.loaders[0].loader, strict: config.reactStrictMode }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project.dir });
    const config = JSON.parse(stdout) as { as: string; loader: string; strict: boolean };
    expect(config).toMatchObject({ as: '*.js', strict: true });
    expect(config.loader.startsWith(installed)).toBe(true);
    expect(existsSync(config.loader)).toBe(true);
  });
});
