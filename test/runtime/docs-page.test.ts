/**
 * The API reference page served by `listen({ docsPage })`: the shell, its files and the viewer's
 * with a Content-Security-Policy that allows no inline script; the page never takes a path of the
 * binding (checked at start-up); without the viewer, the console and the IDL view, and what to install; the request templates
 * and the IDL printer the page's scripts use. The page in a browser: test/playground/docs-page.test.ts.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocsPath, createDocsPage, DOCS_PAGE_CSP } from '../../runtime/docs-page/index.js';
import { ownPackageRoot, viewerFolder } from '../../runtime/docs-page/page-files.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { createRpcServer, listen } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers, post, serverHandle, startServer, type TestServer } from './helpers.js';

let server: TestServer;
let emptyFolder = '';
const repository = fileURLToPath(new URL('../../', import.meta.url));

beforeAll(async () => {
  server = await startServer({ listen: { docsPage: createDocsPage({ title: 'Checkout <API>', idlSource: 'namespace checkout\n' }) } });
  emptyFolder = await mkdtemp(path.join(tmpdir(), 'docs-page-no-viewer-'));
});

afterAll(async () => {
  await server?.close();
  if (emptyFolder) await rm(emptyFolder, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => fetch(url, { method });

/** The status of a GET for a path sent exactly as given. */
function rawStatus(port: number, pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('the page served by listen({ docsPage })', () => {
  it('answers the shell with a CSP that allows scripts only from files of its own origin, and no inline script in it', async () => {
    for (const pathname of ['/__idl/docs', '/__idl/docs/']) {
      const response = await get(`${server.url}${pathname}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
      const html = await response.text();
      expect(html).toContain('<title>Checkout &lt;API&gt;</title>');
      // Every script is a file; no inline event handlers or style attributes either.
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts).toHaveLength(2);
      for (const tag of scripts) expect(tag).toMatch(/ src="\/__idl\/docs\/(?:viewer|assets)\/[\w.-]+\.js"/);
      expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>|\son\w+=|\sstyle=/);
      expect(html).toContain('data-rpc-path="/"');
      expect(html).toContain('data-idl-url="/__idl/docs/idl"');
      expect(html).toContain('<a href="/openapi.json">OpenAPI document</a>, <a href="/openrpc.json">OpenRPC document</a>');
    }
    const policy = Object.fromEntries(DOCS_PAGE_CSP.split('; ').map((directive) => [directive.split(' ')[0], directive]));
    expect(policy['script-src']).toBe("script-src 'self'");
    expect(policy['default-src']).toBe("default-src 'none'");
    expect(policy['connect-src']).toBe("connect-src 'self'");
    expect(DOCS_PAGE_CSP).not.toContain('unsafe');
  });

  it('serves its own files and the viewer files with the CSP, and nothing else below its path', async () => {
    for (const [file, type] of [
      ['assets/docs.js', 'text/javascript; charset=utf-8'],
      ['assets/console.js', 'text/javascript; charset=utf-8'],
      ['assets/docs.css', 'text/css; charset=utf-8'],
      ['viewer/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['viewer/swagger-ui.css', 'text/css; charset=utf-8'],
    ]) {
      const response = await get(`${server.url}/__idl/docs/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    const head = await get(`${server.url}/__idl/docs/assets/docs.js`, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // Sent as written (fetch would normalize the dot segments away).
    for (const file of [
      'viewer/package.json',
      'viewer/index.html',
      'assets/../docs-page.ts',
      'assets/%2e%2e/docs-page.ts',
      'other',
      'assets/docs.js/x',
    ]) {
      expect(await rawStatus(server.port, `/__idl/docs/${file}`), file).toBe(404);
    }
  });

  it('serves the IDL source it was given as text', async () => {
    const response = await get(`${server.url}/__idl/docs/idl`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('namespace checkout\n');
  });

  it('leaves every other request to the binding: calls, POSTs to its path, other GETs', async () => {
    const call = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'CatalogService.listProducts' });
    expect(call.json.result).toBeInstanceOf(Array);
    const postToPage = await post(`${server.url}/__idl/docs`, { jsonrpc: '2.0', id: 1, method: 'x' });
    expect(postToPage.status).toBe(404);
    expect(postToPage.json).toEqual({ code: -32601, message: 'Method not found: /__idl/docs' });
    const other = await get(`${server.url}/__idl/docsx`);
    expect(other.status).toBe(405);
    await other.body?.cancel();
  });

  it('without the viewer, serves the console and the IDL view, the reference saying what to install', async () => {
    const bare = serverHandle(
      await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), {
        port: 0,
        host: '127.0.0.1',
        docsPage: createDocsPage({ viewerFrom: emptyFolder }),
      }),
    );
    try {
      const response = await get(`${bare.url}/__idl/docs`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
      const html = await response.text();
      expect(html).toContain('data-testid="console"');
      expect(html).toContain('data-testid="idl-text"');
      expect(html).toContain('npm install swagger-ui-dist');
      expect(html).toContain('data-viewer="missing"');
      // The page's own script only: nothing of the viewer is asked for.
      expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/__idl/docs/assets/docs.js">']);
      expect(html).not.toContain('/viewer/');
      expect((await get(`${bare.url}/__idl/docs/viewer/swagger-ui-bundle.js`)).status).toBe(404);
      const idl = await get(`${bare.url}/__idl/docs/idl`);
      expect(idl.status).toBe(404);
      await idl.body?.cancel();
    } finally {
      await bare.close();
    }
  });

  it('finds the viewer once it is installed, without a restart', async () => {
    const project = await mkdtemp(path.join(tmpdir(), 'docs-page-viewer-later-'));
    const bare = serverHandle(
      await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), {
        port: 0,
        host: '127.0.0.1',
        docsPage: createDocsPage({ viewerFrom: project }),
      }),
    );
    try {
      expect(await (await get(`${bare.url}/__idl/docs`)).text()).toContain('npm install swagger-ui-dist');
      expect((await get(`${bare.url}/__idl/docs/viewer/swagger-ui.css`)).status).toBe(404);
      // "Installed": the package as node_modules holds it.
      await mkdir(path.join(project, 'node_modules'));
      await symlink(viewerFolder(repository)!, path.join(project, 'node_modules', 'swagger-ui-dist'), 'dir');
      const html = await (await get(`${bare.url}/__idl/docs`)).text();
      expect(html).not.toContain('npm install swagger-ui-dist');
      expect(html).toContain('<script defer src="/__idl/docs/viewer/swagger-ui-bundle.js"></script>');
      const css = await get(`${bare.url}/__idl/docs/viewer/swagger-ui.css`);
      expect(css.status).toBe(200);
      await css.body?.cancel();
    } finally {
      await bare.close();
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe('where the page may live', () => {
  const methodNames = ['CatalogService.listProducts'];

  it('refuses the JSON-RPC paths and the REST path of a registered method, and accepts the rest', () => {
    expect(() => checkDocsPath('/docs', { basePath: '/', methodNames })).toThrow(
      "docs page: path /docs is where JSON-RPC is served (the base / and one segment below it); pick another, e.g. '/__idl/docs'",
    );
    expect(() => checkDocsPath('/api', { basePath: '/api', methodNames })).toThrow(/is where JSON-RPC is served/);
    expect(() => checkDocsPath('/x/CatalogService/listProducts', { basePath: '/', methodNames })).toThrow(
      "docs page: path /x/CatalogService/listProducts is the REST binding of CatalogService.listProducts; pick another, e.g. '/__idl/docs'",
    );
    expect(() => checkDocsPath('/__idl/docs', { basePath: '/', methodNames })).not.toThrow();
    expect(() => checkDocsPath('/docs', { basePath: '/api', methodNames })).not.toThrow();
  });

  it('listen refuses to start with a page on a path of the binding; bad paths are refused when the page is made', () => {
    const rpc = createRpcServer({ idl: checkoutIdl, handlers: checkoutHandlers().handlers });
    expect(() => listen(rpc, { port: 0, docsPage: createDocsPage({ path: '/CatalogService/listProducts' }) })).toThrow(
      /is the REST binding of CatalogService\.listProducts/,
    );
    expect(() => listen(rpc, { port: 0, basePath: '/api', docsPage: createDocsPage({ path: '/api/docs' }) })).toThrow(
      /is where JSON-RPC is served/,
    );
    for (const bad of ['docs', '/a/../b', '/a b', ''])
      expect(() => createDocsPage({ path: bad }), bad).toThrow(/path must be an absolute path/);
    expect(() => createDocsPage({ path: '/api', openApiUrl: '/api/openapi.json' })).toThrow(
      'docs page: path /api would hide the OpenAPI document at /api/openapi.json; pick another path',
    );
    expect(() => createDocsPage({ path: '/api', openRpcUrl: '/api/openrpc.json' })).toThrow(
      'docs page: path /api would hide the OpenRPC document at /api/openrpc.json; pick another path',
    );
  });

  it('sends the console to the base of listen unless told otherwise', async () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    const based = serverHandle(await listen(rpc, { port: 0, host: '127.0.0.1', basePath: '/api/', docsPage: createDocsPage() }));
    try {
      const html = await (await get(`${based.url}/__idl/docs`)).text();
      expect(html).toContain('data-rpc-path="/api"');
      expect(html).not.toContain('data-idl-url');
    } finally {
      await based.close();
    }
  });
});

describe("the page's files", () => {
  it('are found from a server bundle outside the package, through the current folder', () => {
    expect(ownPackageRoot(path.join(emptyFolder, 'dist', 'main.js'))).toBe(path.resolve(repository));
    expect(viewerFolder(emptyFolder)).toBeUndefined();
    expect(viewerFolder(repository)).toBe(path.join(repository, 'node_modules', 'swagger-ui-dist'));
  });
});

describe("the page's scripts", async () => {
  // Plain browser modules without types; loaded as they are served.
  const template = await import(`../../runtime/docs-page/assets/${'request-template.js'}`);
  const printer = await import(`../../runtime/docs-page/assets/${'idl-text.js'}`);

  it('pre-fill every required field (inherited first), the first enum value, and stop at recursion', () => {
    const index = template.idlIndex(calcIdl);
    expect(template.templateOf(index, { userDefined: 'Dog' })).toEqual({ name: '', legs: 0, good: false });
    expect(template.templateOf(index, { userDefined: 'Color' })).toBe('black');
    expect(template.templateOf(index, { userDefined: 'Tree' })).toEqual({ label: '' });
    expect(template.templateOf(index, { mapValue: { builtIn: 'int' } })).toEqual({});
    // The built-in types with wire forms are pre-filled with valid values; json with null.
    expect(['timestamp', 'date', 'bytes', 'json'].map((builtIn) => template.templateOf(index, { builtIn }))).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-01-01',
      '',
      null,
    ]);
    expect(template.enumChoices(index, { userDefined: 'Color' })).toEqual(['black', 'white', 'brown']);
    expect(template.enumPlaces(index, { userDefined: 'Dog' })).toEqual([{ place: 'color', values: ['black', 'white', 'brown'] }]);
  });

  it('pre-fill defaults, then examples, then values within the constraints', () => {
    const served = toIdlJson(
      compileIdl(
        [
          'namespace shop',
          '// @example {"sku": "A-1", "count": 2}',
          'struct Line {',
          '    sku string',
          '    count int',
          '}',
          'struct Query {',
          '    page int [min=1]',
          '    step float [exclusiveMin=0, multipleOf=0.25]',
          '    odd int [min=3, multipleOf=5]',
          '    email string [format="email"]',
          '    code string [minLength=3]',
          '    tags []string [minItems=2, minLength=1]',
          '    // @example "blue"',
          '    color string',
          '    size int [optional, default=10]',
          '    line Line',
          '}',
          '',
        ].join('\n'),
        'shop.idl',
      ),
    );
    const index = template.idlIndex(served);
    expect(template.templateOf(index, { userDefined: 'Query' })).toEqual({
      page: 1,
      step: 0.25,
      odd: 5,
      email: 'user@example.com',
      code: 'xxx',
      tags: ['x', 'x'],
      color: 'blue',
      line: { sku: 'A-1', count: 2 },
    });
    expect(template.itemTemplate(index, { type: { builtIn: 'int' }, optional: true, default: 30 })).toBe(30);
    expect(template.constraintHints({ default: 30, constraints: { min: 1, max: 100 } })).toEqual(['default 30', 'min 1', 'max 100']);
  });

  it('print attribute lists, optional parameters and unions back as the IDL writes them', () => {
    const source = [
      'namespace shop',
      'struct Card {',
      '    number string [minLength=12, pattern="^\\\\d+$"]',
      '}',
      'struct Cash {',
      '    amount int [min=1]',
      '}',
      'union Payment [discriminator=type] {',
      '    card Card',
      '    cash Cash',
      '}',
      'interface Shop {',
      '    list(cursor string [optional], perPage int [optional, default=30, max=100]) []Card [maxItems=100]',
      '    pay(payment Payment) bool',
      '}',
      '',
    ].join('\n');
    const served = toIdlJson(compileIdl(source, 'shop.idl'));
    const printed: string = printer.printIdlJson(served);
    expect(printed).toContain('list(cursor string [optional], perPage int [optional, default=30, max=100]) []Card [maxItems=100]');
    expect(printed).toContain('union Payment [discriminator=type] {');
    expect(toIdlJson(compileIdl(printed, 'printed.idl'))).toEqual(served);
  });

  it('pre-fill a union with its first variant, discriminator set, and list its tags as a choice', () => {
    const idl = toIdlJson(compileIdl(readFileSync(new URL('./fixtures/unions.idl', import.meta.url), 'utf8'), 'unions.idl'));
    const index = template.idlIndex(idl);
    expect(template.templateOf(index, { userDefined: 'Payment' })).toEqual({ kind: 'card', number: '', expires: '2026-01-01T00:00:00Z' });
    expect(template.templateOf(index, { userDefined: 'Order' })).toMatchObject({ payment: { kind: 'card' }, history: [] });
    expect(template.enumPlaces(index, { userDefined: 'Order' })).toEqual([
      { place: 'payment.kind', values: ['card', 'bank_transfer'] },
      { place: 'backup.kind', values: ['card', 'bank_transfer'] },
      { place: 'history[].kind', values: ['card', 'bank_transfer'] },
      { place: 'byName{}.kind', values: ['card', 'bank_transfer'] },
      { place: 'single.type', values: ['only'] },
    ]);
  });

  it('print unions in the IDL view, with their discriminator and doc comments', () => {
    const source =
      'namespace pay\nstruct Card {\n    number string\n}\nstruct Cash {\n}\n// How to pay.\nunion Payment [discriminator=type] {\n    // By card.\n    card Card\n    cash Cash\n}\ninterface Pay {\n    pay(p Payment) Payment\n}\n';
    const served = toIdlJson(compileIdl(source, 'pay.idl'));
    const printed: string = printer.printIdlJson(served);
    expect(printed).toContain('// How to pay.\nunion Payment [discriminator=type] {\n    // By card.\n    card  Card\n    cash  Cash\n}\n');
    expect(toIdlJson(compileIdl(printed, 'printed.idl'))).toEqual(served);
  });

  it('print stream methods in the IDL view with `stream` before their item type', () => {
    const source =
      'namespace shop\nstruct Order {\n    id string\n}\ninterface Orders {\n    // Live.\n    watch(id string) stream Order\n}\n';
    const served = toIdlJson(compileIdl(source, 'shop.idl'));
    const printed: string = printer.printIdlJson(served);
    expect(printed).toContain('    // Live.\n    watch(id string) stream Order\n');
    expect(toIdlJson(compileIdl(printed, 'printed.idl'))).toEqual(served);
  });

  it('print the IDL from its JSON form: the same contract with every doc comment, and find a method line', () => {
    const source = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
    const served = toIdlJson(compileIdl(source, 'checkout.idl'));
    const printed: string = printer.printIdlJson(served);
    expect(printed).toMatch(/^namespace checkout\n/);
    expect(printed).toContain(
      '    // Turns a cart into a pending order.\n    createOrder(request CreateOrderRequest) CheckoutResponse raises(',
    );
    expect(toIdlJson(compileIdl(printed, 'printed.idl'))).toEqual(served);
    expect(
      printer.methodSignature({
        name: 'm',
        parameters: [{ name: 'a', type: { array: { userDefined: 'T' } } }],
        returnType: { builtIn: 'int' },
        returnOptional: true,
        raises: ['E'],
      }),
    ).toBe('m(a []T) int [optional] raises(E)');
    const documented = printer.printIdlJson({ ...calcIdl, interfaces: [{ ...calcIdl.interfaces![0], comment: 'Adds.\nAnd more.' }] });
    expect(documented).toContain('// Adds.\n// And more.\ninterface Calc {');
    expect(documented).toContain('struct Dog extends Animal {');
    const lines = documented.split('\n');
    expect(lines[printer.methodLine(lines, 'Calc', 'join')]).toMatch(/^ {4}join\(first string/);
    expect(printer.methodLine(lines, 'Calc', 'nothing')).toBe(-1);
  });
});
