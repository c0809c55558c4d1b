/**
 * Reads over GET (docs/protocol.md, "Reads over GET"): what a `@readonly` method's GET costs the
 * server against the same call as a JSON-RPC POST, in one process (as the in-process suite times
 * calls: `handleHttp`, request in, answer out, CPU time). Two GETs: one a cache revalidates
 * (`If-None-Match` naming the answer's ETag: 304, no body), one a client without the answer sends
 * (200 with the ETag computed). The server is the generated checkout server of the playground's IDL
 * (which tags the catalog's reads `@readonly`), the handlers the playground's service (loadCheckoutHandlers).
 * Rounds are interleaved and rotated as in the in-process suite, so the ratio is the steady figure.
 */
import { catalogSize, serverCalls } from '../lib/checkout.mjs';
import { microsecondsPerRequest } from '../lib/cpu-per-request.mjs';
import { loadCheckoutHandlers } from '../lib/handlers.mjs';
import { checkoutIdl, importGeneratedIdl } from '../lib/ours.mjs';
import { pairedRow } from '../lib/paired-row.mjs';

/** The playground's IDL, which tags CatalogService's two reads (and the cart's and order's) `@readonly`. */
function idlWithReads() {
  const { text } = checkoutIdl();
  for (const method of ['listProducts()', 'getProduct(']) {
    if (!new RegExp(`// @readonly\\n\\s*${method.replace('(', '\\(').replace(')', '\\)')}`).test(text))
      throw new Error(`the checkout IDL no longer tags ${method} @readonly, which the reads suite times`);
  }
  return text;
}

const cases = [
  {
    name: 'getProduct',
    label: 'getProduct',
    post: serverCalls.getProduct,
    path: `/CatalogService/getProduct?productId=${encodeURIComponent('"kettle"')}`,
  },
  {
    name: 'listProducts',
    label: `listProducts (${catalogSize} products)`,
    post: serverCalls.listProducts,
    path: '/CatalogService/listProducts',
  },
];

/** Runs the suite: `options.rounds` rounds of `options.budgetMs` per case and kind, after `options.warmupMs` each. */
export async function runReadsSuite(options) {
  const { handlers } = await loadCheckoutHandlers();
  const module = await importGeneratedIdl('checkout-reads', idlWithReads());
  const core = module.createCheckoutServer(handlers, { validateRequests: true, validateResponses: true });
  const entries = {};
  for (const testCase of cases) {
    const first = await core.handleHttp({ method: 'GET', path: testCase.path, body: '' });
    const etag = first.headers.etag;
    if (first.status !== 200 || etag === undefined)
      throw new Error(`GET ${testCase.path} answered ${first.status} without an ETag: ${first.body}`);
    const posted = JSON.parse(
      (await core.handleHttp({ method: 'POST', path: '/', contentType: 'application/json', body: testCase.post })).body,
    );
    if (JSON.stringify(posted.result) !== first.body) throw new Error(`GET and POST of ${testCase.name} answer differently`);
    const revalidated = await core.handleHttp({ method: 'GET', path: testCase.path, body: '', headers: { 'if-none-match': etag } });
    if (revalidated.status !== 304) throw new Error(`GET ${testCase.path} with its ETag answered ${revalidated.status}`);
    entries[testCase.name] = {
      post: async (body) => (await core.handleHttp({ method: 'POST', path: '/', contentType: 'application/json', body })).body,
      // The status joins the (empty) body, so that every answer has a length (cpu-per-request.mjs uses it).
      get304: async (path) => {
        const answer = await core.handleHttp({ method: 'GET', path, body: '', headers: { 'if-none-match': etag } });
        return `${answer.status}${answer.body}`;
      },
      get200: async (path) => (await core.handleHttp({ method: 'GET', path, body: '' })).body,
    };
  }
  const kinds = ['post', 'get304', 'get200'];
  const requestOf = (testCase, kind) => (kind === 'post' ? testCase.post : testCase.path);
  for (const testCase of cases)
    for (const kind of kinds) await microsecondsPerRequest(entries[testCase.name][kind], requestOf(testCase, kind), options.warmupMs);
  const samples = {};
  for (let round = 0; round < options.rounds; round++) {
    for (const testCase of cases) {
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + round) % kinds.length];
        const time = await microsecondsPerRequest(entries[testCase.name][kind], requestOf(testCase, kind), options.budgetMs);
        (samples[`${testCase.name}/${kind}`] ??= []).push(time);
      }
    }
  }
  const rows = [];
  const ratios = {};
  for (const testCase of cases) {
    for (const [kind, what] of [
      ['get304', 'as a GET answered 304 (If-None-Match: its ETag)'],
      ['get200', 'as a GET answered 200 with its ETag'],
    ]) {
      const { row, perRoundRatio } = pairedRow({
        group: 'reads',
        metric: `reads: ${testCase.label} ${what}, in-process CPU time per request`,
        unit: 'us',
        peerName: 'the same call as a JSON-RPC POST',
        ours: samples[`${testCase.name}/${kind}`],
        peer: samples[`${testCase.name}/post`],
      });
      rows.push(row);
      ratios[`${testCase.name} ${kind}/post`] = perRoundRatio;
    }
  }
  return { rows, info: { rounds: options.rounds, budgetMs: options.budgetMs, perRoundRatio: ratios } };
}
