/**
 * The cost of the MCP binding (docs/mcp.md, "Cost of a call"; the goal: a tools/call costs at most
 * 1.2 times a JSON-RPC call of the same method on the same server). One checkout server with the
 * binding mounted; each case times `handleHttp` with a tools/call POSTed to `/mcp` and with the
 * JSON-RPC call of the same method POSTed to `/`, CPU time per request in this one process, rounds
 * interleaved as in the in-process suite (inprocess.mjs says why). `info` gives the per-round ratio.
 *
 * Two more rows answer "an app that does not enable MCP: bundle and start-up unchanged": a new
 * process that imports the runtime and creates the checkout server, with and without the binding
 * (CPU time), and the bytes of a minified server bundle with and without it (esbuild).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { catalogSize, comparable, repoRoot } from '../lib/checkout.mjs';
import { microsecondsPerRequest } from '../lib/cpu-per-request.mjs';
import { loadCheckoutHandlers } from '../lib/handlers.mjs';
import { cacheDir } from '../lib/load-ts.mjs';
import { checkoutIdl, importBuilt, importGeneratedCheckout } from '../lib/ours.mjs';
import { pairedRow } from '../lib/paired-row.mjs';
import { median } from '../lib/stats.mjs';

const startupProcess = fileURLToPath(new URL('./mcp-startup-process.mjs', import.meta.url));
const mcpHeaders = { 'mcp-protocol-version': '2025-11-25' };

/** The same call as a JSON-RPC request and as a tools/call. */
const cases = [
  {
    label: 'getProduct',
    method: 'CatalogService.getProduct',
    tool: 'CatalogService_getProduct',
    params: ['kettle'],
    args: { productId: 'kettle' },
  },
  {
    label: 'addToCart',
    method: 'CartService.addToCart',
    tool: 'CartService_addToCart',
    params: [{ cartId: null, productId: 'grinder', quantity: 2 }],
    args: { request: { cartId: null, productId: 'grinder', quantity: 2 } },
  },
  {
    label: `listProducts (${catalogSize} products)`,
    method: 'CatalogService.listProducts',
    tool: 'CatalogService_listProducts',
    params: [],
    args: {},
  },
].map((c) => ({
  ...c,
  jsonRpcBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: c.method, params: c.params }),
  toolCallBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.tool, arguments: c.args } }),
}));

/** The checkout server of the benchmarks with the MCP binding exposing every interface. */
async function checkoutServerWithMcp(handlers) {
  const { module } = await importGeneratedCheckout();
  const { mcpBinding } = await importBuilt('runtime/mcp/index.js');
  return module.createCheckoutServer(handlers, {
    validateRequests: true,
    validateResponses: true,
    mcp: mcpBinding({ expose: ['CatalogService', 'CartService', 'OrderService'] }),
  });
}

/** The tools/call's result must be the JSON-RPC call's result (or `{ result }` of it, for an `[optional]` return or no struct). */
function checkSameResult(testCase, jsonRpcText, toolCallText) {
  const jsonRpc = JSON.parse(jsonRpcText);
  const toolCall = JSON.parse(toolCallText);
  const structured = toolCall.result?.structuredContent;
  if (toolCall.result?.isError || structured === undefined)
    throw new Error(`${testCase.label}: tools/call failed: ${toolCallText.slice(0, 300)}`);
  const expected = comparable(jsonRpc.result);
  if (comparable(structured) !== expected && comparable(structured.result) !== expected)
    throw new Error(`${testCase.label}: tools/call and JSON-RPC answer differently`);
  if (JSON.stringify(JSON.parse(toolCall.result.content[0].text)) !== JSON.stringify(structured)) {
    throw new Error(`${testCase.label}: the text block is not the structuredContent`);
  }
}

/** The checkout IDL as JSON (what a server module imports), written to the cache; its path. */
async function checkoutIdlJsonFile() {
  const { compileIdl } = await importBuilt('src/idl/index.js');
  const { toIdlJson } = await importBuilt('src/idl/json.js');
  const { file, text } = checkoutIdl();
  mkdirSync(cacheDir, { recursive: true });
  const out = path.join(cacheDir, 'checkout.idl.json');
  writeFileSync(out, JSON.stringify(toIdlJson(compileIdl(text, file))));
  return out;
}

/** CPU milliseconds of a new process importing the runtime and creating the checkout server (mcp-startup-process.mjs). */
function startupCpuMs(idlJsonFile, withMcp) {
  const output = execFileSync(process.execPath, [startupProcess, idlJsonFile, withMcp ? 'mcp' : 'plain'], { encoding: 'utf8' });
  const ms = Number(output.trim());
  if (!(ms > 0)) throw new Error(`start-up process printed ${JSON.stringify(output)}`);
  return ms;
}

/** Minified bytes of a server bundle of the checkout server, with or without the binding. */
async function serverBundleBytes(idlJsonFile, withMcp) {
  const dir = path.join(cacheDir, 'mcp-size');
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, withMcp ? 'with-mcp.mjs' : 'without-mcp.mjs');
  writeFileSync(entry, serverEntrySource(idlJsonFile, withMcp));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    write: false,
    outdir: path.join(dir, 'out'),
    logLevel: 'error',
  });
  return result.outputFiles.find((file) => file.path.endsWith('.js')).contents.byteLength;
}

/** A server module as an app writes it: the checkout server from its IDL JSON, listening. */
function serverEntrySource(idlJsonFile, withMcp) {
  const runtime = path.join(repoRoot, 'dist', 'runtime', 'index.js');
  const mcp = path.join(repoRoot, 'dist', 'runtime', 'mcp', 'index.js');
  return `import { createRpcServer, listen } from ${JSON.stringify(runtime)};
${withMcp ? `import { mcpBinding } from ${JSON.stringify(mcp)};\n` : ''}import idl from ${JSON.stringify(idlJsonFile)} with { type: 'json' };
const handlers = { CatalogService: { listProducts: () => [], getProduct: () => null } };
const server = createRpcServer({ idl, handlers${withMcp ? ", mcp: mcpBinding({ expose: ['CatalogService'] })" : ''} });
await listen(server);
`;
}

/** Runs the suite: `options.rounds` rounds of `options.budgetMs` per case and binding, `options.startupRounds` start-ups each. */
export async function runMcpSuite(options) {
  const { handlers } = await loadCheckoutHandlers();
  const server = await checkoutServerWithMcp(handlers);
  const jsonRpc = async (body) => (await server.handleHttp({ method: 'POST', path: '/', contentType: 'application/json', body })).body;
  const toolCall = async (body) =>
    (await server.handleHttp({ method: 'POST', path: '/mcp', contentType: 'application/json', headers: mcpHeaders, body })).body;
  for (const testCase of cases) checkSameResult(testCase, await jsonRpc(testCase.jsonRpcBody), await toolCall(testCase.toolCallBody));

  const entries = [
    ['jsonRpc', jsonRpc, 'jsonRpcBody'],
    ['toolCall', toolCall, 'toolCallBody'],
  ];
  for (const testCase of cases)
    for (const [, entry, body] of entries) await microsecondsPerRequest(entry, testCase[body], options.warmupMs);
  const samples = {};
  for (let round = 0; round < options.rounds; round++) {
    for (const testCase of cases) {
      for (let i = 0; i < entries.length; i++) {
        const [kind, entry, body] = entries[(i + round) % entries.length];
        (samples[`${testCase.label}/${kind}`] ??= []).push(await microsecondsPerRequest(entry, testCase[body], options.budgetMs));
      }
    }
  }

  const rows = [];
  const perRoundRatio = {};
  for (const testCase of cases) {
    const { row, perRoundRatio: ratio } = pairedRow({
      group: 'mcp',
      metric: `MCP tools/call ${testCase.label}, in-process CPU time per request`,
      unit: 'us',
      peerName: 'JSON-RPC call of the same method, same server',
      ours: samples[`${testCase.label}/toolCall`],
      peer: samples[`${testCase.label}/jsonRpc`],
    });
    rows.push(row);
    perRoundRatio[testCase.label] = ratio;
  }

  const idlJsonFile = await checkoutIdlJsonFile();
  const startup = { plain: [], mcp: [] };
  for (let round = 0; round < options.startupRounds; round++) {
    startup.plain.push(startupCpuMs(idlJsonFile, false));
    startup.mcp.push(startupCpuMs(idlJsonFile, true));
  }
  rows.push({
    group: 'mcp',
    metric: 'server start-up with the MCP binding: import the runtime, create the checkout server (new process, CPU time)',
    unit: 'ms',
    ours: median(startup.mcp),
    peerName: 'the same server without MCP',
    peer: median(startup.plain),
    higherIsBetter: false,
  });
  const bytes = { plain: await serverBundleBytes(idlJsonFile, false), mcp: await serverBundleBytes(idlJsonFile, true) };
  rows.push({
    group: 'mcp',
    metric: 'server bundle with the MCP binding, minified (esbuild, platform node)',
    unit: 'bytes',
    ours: bytes.mcp,
    peerName: 'the same server without MCP',
    peer: bytes.plain,
    higherIsBetter: false,
  });
  return { rows, info: { rounds: options.rounds, budgetMs: options.budgetMs, perRoundRatio, startupRounds: options.startupRounds, bytes } };
}
