/**
 * The Vite dev server with the plugin must not serve, through the plugin, what Vite itself refuses:
 * ids with `.idl` only in the query (`/.env.local?import&x.idl`), files outside `server.fs.allow` or
 * matching `server.fs.deny`, devices (`/dev/zero`), files too large for an IDL. It must never write
 * a `.d.ts` outside the project. A real dev server (the built plugin) runs in a child process under
 * the hostile harness; the project and a folder outside it are made here in a temporary folder.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript, tempFolder, type ChildRun } from './harness.js';

/** The documented default of `maxIdlBytes` (docs/plugin.md). */
const DEFAULT_MAX_IDL_BYTES = 1024 * 1024;

const ENV_SECRET = 'ENV_SECRET_7f3a91';
const PEM_SECRET = 'PEM_SECRET_c04e5d';
const OUTSIDE_SECRET = 'OUTSIDE_SECRET_9b2e44';
/** A type name only the `.idl` outside the project declares. */
const OUTSIDE_TYPE = 'OutsiderOnlyStruct';

const INSIDE_IDL = `namespace insider

struct InsiderItem {
    name  string
}

interface InsiderService {
    item(name string) InsiderItem
}
`;
const OUTSIDE_IDL = `namespace outsider

struct ${OUTSIDE_TYPE} {
    secret  string
}

interface OutsiderService {
    peek() ${OUTSIDE_TYPE}
}
`;
const SHARED_IDL = INSIDE_IDL.replace(/insider/g, 'shared').replace(/Insider/g, 'Shared');

interface Answer {
  status: number;
  body: string;
}

/** The dev servers the child starts, by their `server.fs` settings. */
type ServerName =
  /** `server.fs` left at its defaults (strict). */
  | 'strict'
  /** `server.fs.strict: false`. */
  | 'loose'
  /** `server.fs.allow` lists the project and a shared folder beside it. */
  | 'shared';

/** One line of the child's output. */
type Report = ({ server: ServerName; url: string } & Answer) | { devZeroPeakGrowthKiB: number };

let remove: () => void;
let project: string;
let outside: string;
let shared: string;
let child: ChildRun;
let reports: Report[];

/**
 * The child: dev servers on the project (with the built plugin), each asked its URLs. Each answer
 * is printed as soon as it arrives, so a child that dies on one request still reports the others;
 * the requests that cost the most when the plugin misbehaves come last.
 */
function childSource(): string {
  const settings = {
    project,
    strictUrls: [
      '/.env.local?import&x.idl',
      '/key.pem?import&x.idl',
      `/@fs${outside}/secret.txt?import&x.idl`,
      `/@fs${outside}/credentials?import&x.idl`,
      `/@fs${outside}/valid.idl?import`,
      '/etc/passwd?x.idl',
      '/inside.idl?import',
      '/openapi.json',
    ],
    looseUrls: [`/@fs${outside}/valid.idl?import`],
    sharedAllow: [project, shared],
    sharedUrls: [`/@fs${shared}/shared.idl?import`],
  };
  return `
const { createServer } = await import('vite');
const { default: idlRpc } = await import(DIST + 'src/plugin/vite.js');
const { project, strictUrls, looseUrls, sharedAllow, sharedUrls } = ${JSON.stringify(settings)};

async function withServer(fs, work) {
  const server = await createServer({
    configFile: false, root: project, logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, fs }, plugins: [idlRpc()],
  });
  await server.listen();
  const base = 'http://127.0.0.1:' + server.httpServer.address().port;
  try {
    await work(base);
  } finally {
    await server.close();
  }
}

function report(line) {
  process.stdout.write(JSON.stringify(line) + '\\n');
}

async function get(server, base, url) {
  let answer;
  try {
    // A guard against a request that never ends, so the others are still reported.
    const response = await fetch(base + url, { signal: AbortSignal.timeout(20000) });
    answer = { status: response.status, body: await response.text() };
  } catch (error) {
    answer = { status: 0, body: String(error) };
  }
  report({ server, url, ...answer });
}

await withServer({}, async (base) => {
  for (const url of strictUrls) await get('strict', base, url);
  await withServer({ strict: false }, async (looseBase) => {
    for (const url of looseUrls) await get('loose', looseBase, url);
  });
  await withServer({ allow: sharedAllow }, async (sharedBase) => {
    for (const url of sharedUrls) await get('shared', sharedBase, url);
  });
  await get('strict', base, '/big.idl?import');
  const before = process.resourceUsage().maxRSS;
  await get('strict', base, '/dev/zero?x.idl');
  report({ devZeroPeakGrowthKiB: process.resourceUsage().maxRSS - before });
});
process.exit(0);
`;
}

beforeAll(async () => {
  ensureBuilt();
  const temp = tempFolder('idlrpc-vite-dev-');
  remove = temp.remove;
  project = path.join(temp.dir, 'project');
  outside = path.join(temp.dir, 'outside');
  shared = path.join(temp.dir, 'shared');
  await Promise.all([mkdir(project), mkdir(outside), mkdir(shared)]);
  // A package.json makes the project its own workspace root: Vite's default `server.fs.allow`.
  await writeFile(path.join(project, 'package.json'), '{ "name": "hostile-project", "private": true }\n');
  await writeFile(path.join(project, '.env.local'), `API_TOKEN=${ENV_SECRET}\n`);
  await writeFile(path.join(project, 'key.pem'), `-----BEGIN PRIVATE KEY-----\n${PEM_SECRET}\n-----END PRIVATE KEY-----\n`);
  await writeFile(path.join(project, 'inside.idl'), INSIDE_IDL);
  // A valid IDL followed by comments up to one byte over the cap.
  const filler = '// filler\n'.repeat(Math.ceil(DEFAULT_MAX_IDL_BYTES / 10));
  await writeFile(path.join(project, 'big.idl'), (INSIDE_IDL + filler).slice(0, DEFAULT_MAX_IDL_BYTES + 1));
  await writeFile(path.join(outside, 'secret.txt'), `${OUTSIDE_SECRET}\n`);
  await writeFile(path.join(outside, 'credentials'), `${OUTSIDE_SECRET}\n`);
  await writeFile(path.join(outside, 'valid.idl'), OUTSIDE_IDL);
  await writeFile(path.join(shared, 'shared.idl'), SHARED_IDL);

  child = await runHostileScript(childSource());
  reports = child.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Report);
}, 90_000);

afterAll(() => remove?.());

/** Why an answer is missing: how the child ended. */
function childEnding(): string {
  return `the child ${child.hung ? 'hung' : `ended with code ${child.code}`}:\n${child.stderr.slice(-2000)}`;
}

/** The answer of one dev server to one URL. */
function answer(url: string, server: ServerName = 'strict'): Answer {
  const found = reports.find((r) => 'url' in r && r.server === server && r.url === url);
  if (!found || !('url' in found)) throw new Error(`no answer from the ${server} server for ${url}; ${childEnding()}`);
  return found;
}

/** Growth of the child's peak resident memory, in KiB, over the `/dev/zero?x.idl` request. */
function devZeroPeakGrowthKiB(): number {
  const found = reports.find((r) => 'devZeroPeakGrowthKiB' in r);
  if (!found || !('devZeroPeakGrowthKiB' in found)) throw new Error(`no memory report; ${childEnding()}`);
  return found.devZeroPeakGrowthKiB;
}

describe('vite dev server: what the plugin must not serve', () => {
  test.each([
    ['/.env.local?import&x.idl', ENV_SECRET],
    ['/key.pem?import&x.idl', PEM_SECRET],
    ['/etc/passwd?x.idl', 'root:'],
  ])('%s: refused (403 or 404), nothing of the file in the answer', (url, secret) => {
    const { status, body } = answer(url);
    expect([403, 404]).toContain(status);
    expect(body).not.toContain(secret);
    expect(hasStackTrace(body)).toBe(false);
  });

  test('a file outside the root named with ?import&x.idl: refused, nothing of the file', () => {
    const { status, body } = answer(`/@fs${outside}/credentials?import&x.idl`);
    expect([403, 404]).toContain(status);
    expect(body).not.toContain(OUTSIDE_SECRET);
  });

  test('an asset outside the root named with ?import&x.idl: nothing of the file, only what Vite itself answers', () => {
    const url = `/@fs${outside}/secret.txt?import&x.idl`;
    const { status, body } = answer(url);
    expect(body).not.toContain(OUTSIDE_SECRET);
    // For `?import` of a known asset type (.txt), Vite itself answers, plugin or not, with a module
    // exporting the asset's URL: the request's own text, never the file's.
    const assetUrlModule = body.split('\n')[0] === `export default ${JSON.stringify(url.replace('import&', ''))}`;
    expect(status === 200 ? assetUrlModule : [403, 404].includes(status)).toBe(true);
  });

  test('a valid .idl outside the root: 403, not compiled, no .d.ts written, not in /openapi.json', async () => {
    const { status, body } = answer(`/@fs${outside}/valid.idl?import`);
    expect(status).toBe(403);
    expect(body).not.toContain(OUTSIDE_TYPE);
    expect(await readdir(outside)).toEqual(['credentials', 'secret.txt', 'valid.idl']);
    const openapi = answer('/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body).not.toContain(OUTSIDE_TYPE);
    expect(openapi.body).toContain('InsiderItem');
  });

  test('/dev/zero?x.idl: refused without reading the device', () => {
    const { status } = answer('/dev/zero?x.idl');
    expect([403, 404]).toContain(status);
    // Reading the device took ~600 MB per request; refusing it takes next to nothing.
    expect(devZeroPeakGrowthKiB()).toBeLessThan(64 * 1024);
  });

  test('an .idl over the size cap: a clear error naming the file and the option', () => {
    const { status, body } = answer('/big.idl?import');
    expect(status).toBe(500);
    expect(body).toContain(
      `${path.join(project, 'big.idl')}: ${DEFAULT_MAX_IDL_BYTES + 1} bytes, more than the ${DEFAULT_MAX_IDL_BYTES} bytes`,
    );
    expect(body).toContain('maxIdlBytes');
    expect(body).not.toContain('filler');
    expect(hasStackTrace(body)).toBe(false);
  });

  test('with server.fs.strict false Vite serves the outside .idl, but no .d.ts is written outside the project', async () => {
    const { status, body } = answer(`/@fs${outside}/valid.idl?import`, 'loose');
    expect(status).toBe(200);
    expect(body).toContain('OutsiderServiceClient');
    expect(await readdir(outside)).toEqual(['credentials', 'secret.txt', 'valid.idl']);
  });
});

describe('vite dev server: what still works', () => {
  test('an .idl inside the root is compiled and its .d.ts written beside it', async () => {
    const { status, body } = answer('/inside.idl?import');
    expect(status).toBe(200);
    expect(body).toContain('class InsiderServiceClient');
    expect(await readdir(project)).toContain('inside.idl.d.ts');
  });

  test('an .idl in a folder server.fs.allow lists is compiled and its .d.ts written beside it', async () => {
    const { status, body } = answer(`/@fs${shared}/shared.idl?import`, 'shared');
    expect(status).toBe(200);
    expect(body).toContain('class SharedServiceClient');
    expect(await readdir(shared)).toEqual(['shared.idl', 'shared.idl.d.ts', 'shared.idl.d.ts.map']);
  });
});
