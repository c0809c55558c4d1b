/**
 * Third-party tools read our documents as the server answers: for the 3.0 and the 3.1 document of
 * checkout.idl, openapi-typescript (with an openapi-fetch client), Hey API and orval generate
 * clients that TypeScript accepts and whose nullable results (`getProduct`, `getOrder`: a struct or
 * null) are typed exactly "the struct or null"; Prism, as a validating proxy in front of the checkout
 * server, passes its null results and flags a result the document forbids (so it did compile the
 * nullable schemas: Prism skips validation silently for a schema its validator rejects).
 *
 * The 3.0 form of a nullable reference is what this guards (docs/openapi.md, "Nullable"): the
 * `anyOf` with a null-only member written before made orval print `Product |  | null`, which does
 * not compile, and Prism validate nothing.
 *
 * The document of the unions fixture (test/openapi/fixtures/unions.idl, docs/openapi.md "Unions")
 * gives each generator a union type that TypeScript narrows on the tag, exhaustively.
 *
 * The tools are dev dependencies: openapi-typescript with its own TypeScript 5 in the
 * test/openapi-generators workspace, Hey API (run with that TypeScript 5 too), orval and Prism at the
 * root. Everything they write goes to a temporary folder, removed after.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, type OpenApiVersion } from '../../src/openapi/index.js';
import { freePort, waitForOutput } from '../child-process.js';
import { post, startServer, type TestServer } from '../runtime/helpers.js';

const root = join(import.meta.dirname, '..', '..');
const workspace = join(root, 'test', 'openapi-generators');
const bin = (folder: string, name: string) => join(folder, 'node_modules', '.bin', name);
const model = compileIdl(readFileSync(join(root, 'playground', 'checkout.idl'), 'utf8'), 'checkout.idl');
/** Every tool run is stopped after this long. */
const TOOL_TIMEOUT_MS = 60_000;

/** Runs a command; resolves with its output, rejects with it (and the exit code) when it fails. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...options, timeout: TOOL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}${stderr}`));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

/** `A` and `B` are the same type (not merely assignable either way). */
const EQUALS = 'type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;';

/** Clients of each generator's output: they call getProduct and getOrder and pin their result types. */
const CLIENTS = {
  'openapi-typescript': `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';
${EQUALS}
type Product = components['schemas']['Product'];
type Order = NonNullable<components['schemas']['Order']>;
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });
export async function getProduct(productId: string) {
  const { data } = await client.POST('/CatalogService/getProduct', { body: { productId } });
  return data;
}
export async function getOrder(orderId: string) {
  const { data } = await client.POST('/OrderService/getOrder', { body: { orderId } });
  return data;
}
export const productOrNull: Equals<Awaited<ReturnType<typeof getProduct>>, Product | null | undefined> = true;
export const orderOrNull: Equals<Awaited<ReturnType<typeof getOrder>>, Order | null | undefined> = true;
`,
  'hey-api': `import { catalogServiceGetProduct, orderServiceGetOrder } from './hey/sdk.gen';
import type { Order as MaybeOrder, Product } from './hey/types.gen';
${EQUALS}
type Order = NonNullable<MaybeOrder>;
export async function getProduct(productId: string) {
  const { data } = await catalogServiceGetProduct({ body: { productId } });
  return data;
}
export async function getOrder(orderId: string) {
  const { data } = await orderServiceGetOrder({ body: { orderId } });
  return data;
}
export const productOrNull: Equals<Awaited<ReturnType<typeof getProduct>>, Product | null | undefined> = true;
export const orderOrNull: Equals<Awaited<ReturnType<typeof getOrder>>, Order | null | undefined> = true;
`,
  orval: `import { catalogServiceGetProduct, orderServiceGetOrder, type Order as MaybeOrder, type Product } from './orval/api';
${EQUALS}
type Order = NonNullable<MaybeOrder>;
export async function getProduct(productId: string) {
  const response = await catalogServiceGetProduct({ productId });
  return response.status === 200 ? response.data : undefined;
}
export async function getOrder(orderId: string) {
  const response = await orderServiceGetOrder({ orderId });
  return response.status === 200 ? response.data : undefined;
}
export const productOrNull: Equals<Awaited<ReturnType<typeof getProduct>>, Product | null | undefined> = true;
export const orderOrNull: Equals<Awaited<ReturnType<typeof getOrder>>, Order | null | undefined> = true;
`,
} as const;
type Generator = keyof typeof CLIENTS;

/** Writes the generator's output for `document` into `folder` (the client of CLIENTS imports it). */
function generate(generator: Generator, document: string, folder: string): Promise<string> {
  switch (generator) {
    case 'openapi-typescript':
      return run(bin(workspace, 'openapi-typescript'), [document, '-o', join(folder, 'schema.ts')], { cwd: folder });
    case 'hey-api':
      // Hey API prints with the TypeScript 5 API; the project's own TypeScript is 7.
      return run(bin(root, 'openapi-ts'), ['-i', document, '-o', join(folder, 'hey'), '-s'], {
        cwd: folder,
        env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(join(workspace, 'typescript-5.mjs')).href}` },
      });
    case 'orval':
      return run(bin(root, 'orval'), ['-i', withoutReadOperations(document), '-o', join(folder, 'orval', 'api.ts'), '--client', 'fetch'], {
        cwd: folder,
      });
  }
}

/**
 * A copy of the document without the GET operations of `@readonly` methods: orval 7.13's fetch
 * client fails on a query parameter described by `content` (the JSON-encoded parameters of reads
 * over GET) with "Cannot read properties of undefined (reading 'type')" (docs/openapi.md, "Reads
 * over GET"). openapi-typescript, Hey API and Prism read the whole document.
 */
function withoutReadOperations(documentFile: string): string {
  const document = JSON.parse(readFileSync(documentFile, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  for (const path of Object.values(document.paths)) delete path.get;
  const copy = documentFile.replace(/\.json$/, '.without-reads.json');
  writeFileSync(copy, JSON.stringify(document));
  return copy;
}

/** Type-checks the client in `folder` and everything it imports with the project's TypeScript; resolves with the diagnostics. */
async function typeCheck(folder: string): Promise<string> {
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'preserve',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom'],
        types: [],
        skipLibCheck: true,
        paths: { 'openapi-fetch': [join(root, 'node_modules', 'openapi-fetch', 'dist', 'index.d.mts')] },
      },
      files: ['client.ts'],
    }),
  );
  try {
    await run(bin(root, 'tsc'), ['-p', join(folder, 'tsconfig.json')], { cwd: folder });
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Forwards to the checkout server, except getProduct of `broken`, answered with a product the
 * document forbids (a number id): what Prism must flag.
 */
function startTamperingUpstream(target: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const broken = request.url === '/CatalogService/getProduct' && JSON.parse(body || '{}').productId === 'broken';
    const answer = broken
      ? { status: 200, text: JSON.stringify({ productId: 1 }) }
      : await post(`${target}${request.url}`, body, { headers: { 'content-type': 'application/json' } });
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let folder = '';
let checkoutServer: TestServer;
let upstream: Server;
const prisms: ChildProcess[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'openapi-generators-'));
  checkoutServer = await startServer();
  upstream = await startTamperingUpstream(checkoutServer.url);
});

afterAll(async () => {
  for (const child of prisms) child.kill();
  upstream?.close();
  await checkoutServer?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe.each<OpenApiVersion>(['3.0', '3.1'])('clients and Prism from the checkout document (OpenAPI %s)', (version) => {
  const generators = Object.keys(CLIENTS) as Generator[];
  const diagnostics = new Map<Generator, string>();
  let prismUrl = '';

  beforeAll(async () => {
    const document = join(folder, `checkout-${version}.json`);
    writeFileSync(document, JSON.stringify(idlToOpenApi([model], { version }).document));
    const startPrism = async () => {
      const port = await freePort();
      const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      const args = ['proxy', document, target, '--errors', '-p', String(port), '-h', '127.0.0.1'];
      const child = spawn(bin(root, 'prism'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
      prisms.push(child);
      await waitForOutput(child, /Prism is listening/, TOOL_TIMEOUT_MS, 'prism');
      prismUrl = `http://127.0.0.1:${port}`;
    };
    const checkClient = async (generator: Generator) => {
      const clientFolder = join(folder, version, generator);
      mkdirSync(clientFolder, { recursive: true });
      writeFileSync(join(clientFolder, 'client.ts'), CLIENTS[generator]);
      await generate(generator, document, clientFolder);
      diagnostics.set(generator, await typeCheck(clientFolder));
    };
    await Promise.all([startPrism(), ...generators.map(checkClient)]);
  }, 3 * TOOL_TIMEOUT_MS);

  it.each(generators)('%s: the generated client type-checks, getProduct and getOrder give the struct or null', (generator) => {
    expect(diagnostics.get(generator)).toBe('');
  });

  it('Prism passes null results and the struct, and flags a result the document forbids', async () => {
    const call = async (method: string, body: object) => {
      const response = await post(`${prismUrl}/${method}`, body);
      return { status: response.status, json: response.json, flagged: response.headers.get('sl-violations') };
    };
    expect(await call('CatalogService/getProduct', { productId: 'p1' })).toMatchObject({
      status: 200,
      json: { productId: 'p1' },
      flagged: null,
    });
    for (const [method, body] of [
      ['CatalogService/getProduct', { productId: 'unknown' }],
      ['CartService/getCart', { cartId: 'unknown' }],
      ['OrderService/getOrder', { orderId: 'unknown' }],
    ] as const) {
      expect(await call(method, body), method).toEqual({ status: 200, json: null, flagged: null });
    }
    const broken = await call('CatalogService/getProduct', { productId: 'broken' });
    expect(broken.status).toBe(500);
    expect(broken.flagged).toContain('productId');
  });
});

/** The union `Payment` of each generator's output, imported by the client that narrows it. */
const UNION_IMPORTS: Record<Generator, string> = {
  'openapi-typescript': "import type { components } from './schema.js';\ntype Payment = components['schemas']['Payment'];",
  'hey-api': "import type { Payment } from './hey/types.gen';",
  orval: "import type { Payment } from './orval/api';",
};

/** Narrows on the tag: each branch reads its variant's own field, and nothing is left after the two tags. */
const NARROWING_CLIENT = `
export function describePayment(payment: Payment): string {
  switch (payment.type) {
    case 'card':
      return payment.number;
    case 'bank_transfer':
      return payment.iban;
    default: {
      const rest: never = payment;
      return rest;
    }
  }
}
`;

describe.each<OpenApiVersion>(['3.0', '3.1'])('clients from the unions document (OpenAPI %s)', (version) => {
  const generators = Object.keys(CLIENTS) as Generator[];
  const diagnostics = new Map<Generator, string>();

  beforeAll(async () => {
    const unions = compileIdl(readFileSync(join(root, 'test', 'openapi', 'fixtures', 'unions.idl'), 'utf8'), 'unions.idl');
    const document = join(folder, `unions-${version}.json`);
    writeFileSync(document, JSON.stringify(idlToOpenApi([unions], { version }).document));
    await Promise.all(
      generators.map(async (generator) => {
        const clientFolder = join(folder, `unions-${version}`, generator);
        mkdirSync(clientFolder, { recursive: true });
        writeFileSync(join(clientFolder, 'client.ts'), `${UNION_IMPORTS[generator]}\n${NARROWING_CLIENT}`);
        await generate(generator, document, clientFolder);
        diagnostics.set(generator, await typeCheck(clientFolder));
      }),
    );
  }, 3 * TOOL_TIMEOUT_MS);

  it.each(generators)('%s: the union type narrows on its tag', (generator) => {
    expect(diagnostics.get(generator)).toBe('');
  });
});
