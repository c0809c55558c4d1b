/**
 * Hostile input against the server runtime, each case in its own child process (harness.ts):
 * thousands of slow uploads, IDL method names `Object.prototype` also has, ids JSON cannot send
 * back, a batch of NUL strings a handler fails on, a body stream that fails, and cross-site content types.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileScript, type ChildRun } from './harness.js';

beforeAll(() => ensureBuilt(), 180_000);

/** Runs `source` and returns the JSON its last stdout line holds, after the checks every case shares. */
async function runCase(source: string): Promise<any> {
  const run: ChildRun = await runHostileScript(source);
  expect(run.hung, 'hung').toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr), run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** An IDL JSON of one interface `Thing` whose methods take `(text: string)` and return an int. */
const thingIdl = (...names: string[]) =>
  JSON.stringify({
    rootNamespace: 'h',
    checksum: 'h',
    interfaces: [
      {
        name: 'Thing',
        namespace: 'h',
        methods: names.map((name) => ({
          name,
          parameters: [{ name: 'text', type: { builtIn: 'string' } }],
          returnType: { builtIn: 'int' },
        })),
      },
    ],
    structs: [],
    enums: [],
  });

/**
 * The uploading side of the slow-upload case, run as its own process so that only the server's
 * memory is measured. Opens `count` connections, 100 at a time, the next 100 on each line read
 * from stdin (the server writes one once it has accepted the last 100: more at once would
 * overflow its listen backlog, and the kernel resets those connections); each declares `declared` bytes and
 * sends `upload` of them in 33,300-byte writes 10 ms apart, stopping once answered. Once every
 * connection has been answered or has sent all it will, and again whenever that changes, prints
 * a tally: `refused` (503 with connection: close), `other` answers, `silent` (closed without an
 * answer), `unanswered` (all sent, no answer: held by the server). Keeps the sockets open.
 */
const UPLOADER = `
const net = require('node:net');
const [port, count, declared, upload] = process.argv.slice(1).map(Number);
const chunk = Buffer.alloc(33300, 0x20);
const head = 'POST / HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + declared + '\\r\\n\\r\\n';
const states = new Array(count).fill('sending');
const report = () => {
  if (states.includes('sending')) return;
  const tally = { refused: 0, other: 0, silent: 0, unanswered: 0 };
  for (const state of states) tally[state]++;
  console.log(JSON.stringify(tally));
};
function open(index) {
  const socket = net.connect(port, '127.0.0.1');
  let sent = 0, reply = '';
  const become = (state) => {
    if (states[index] !== 'sending' && states[index] !== 'unanswered') return;
    states[index] = state;
    report();
  };
  const answered = () => (reply.startsWith('HTTP/1.1 503 ') && /\\r\\nconnection: close\\r\\n/i.test(reply) ? 'refused' : 'other');
  socket.setEncoding('latin1');
  socket.on('data', (text) => {
    reply += text;
    if (reply.includes('\\r\\n\\r\\n')) become(answered());
  });
  socket.on('close', () => become(reply === '' ? 'silent' : answered()));
  socket.on('error', () => undefined);
  const pump = () => {
    if (states[index] !== 'sending' || socket.destroyed) return;
    if (sent >= upload) return become('unanswered');
    const size = Math.min(chunk.length, upload - sent);
    sent += size;
    socket.write(size === chunk.length ? chunk : chunk.subarray(0, size), () => setTimeout(pump, 10));
  };
  socket.on('connect', () => {
    socket.write(head);
    pump();
  });
}
let opened = 0;
const openSome = () => {
  for (let i = 0; i < 100 && opened < count; i++, opened++) open(opened);
};
openSome();
require('node:readline').createInterface({ input: process.stdin }).on('line', openSome);
`;

describe('hostile: the server runtime', () => {
  it('2,000 slow uploads of 999 KB of a 1 MB body: the server holds at most maxBodyBytesInFlight of them, RSS stays far from 2 GB; the rest get 503', async () => {
    const result = await runCase(`
        import { spawn } from 'node:child_process';
        const { createRpcServer, listen } = await import(DIST + 'runtime/index.js');
        let handled = 0;
        const rpc = createRpcServer({ idl: ${thingIdl('put')}, handlers: { Thing: { put: (text) => (handled++, text.length) } } });
        const server = await listen(rpc, { port: 0, host: '127.0.0.1' });
        const budget = rpc.bodyBudget?.limit ?? 64 * 1024 * 1024;
        // RSS also holds what 2,000 connections cost and the refused chunks the collector has not
        // yet taken back (together 40-110 MB on our machines, more under load), so this stop is far
        // above what a budgeted server takes and far below the 2 GB an unbudgeted one would.
        const allowed = budget + 256 * 1024 * 1024;
        const v8 = await import('node:v8');
        const vm = await import('node:vm');
        v8.setFlagsFromString('--expose-gc');
        const collectGarbage = vm.runInNewContext('gc');
        const baseline = process.memoryUsage.rss();
        const bufferBaseline = process.memoryUsage().arrayBuffers;
        let peak = baseline;
        const finish = (fields) => {
          console.log(JSON.stringify({ budget, allowed, growth: peak - baseline, handledDuringUploads: handled, ...fields }));
          process.exit(0);
        };
        const uploader = spawn(process.execPath, ['-e', ${JSON.stringify(UPLOADER)}, String(server.address().port), '2000', '1000000', '999000'], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let accepted = 0;
        server.on('connection', () => {
          if (++accepted % 100 === 0) uploader.stdin.write('more\\n');
        });
        uploader.stdin.on('error', () => undefined);
        // Sampled often, and the case stops as soon as the growth passes what is allowed, so a
        // server without a budget fails here instead of taking gigabytes from the machine.
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage.rss());
          if (peak - baseline > allowed) {
            uploader.kill('SIGKILL');
            finish({ exceeded: true });
          }
        }, 20);
        // The server holds what fits and refuses the rest; wait (up to 20 s) until the uploader has
        // seen every refusal, then let the held connections die with the uploader.
        let tally;
        let firstTallyAt;
        let lines = '';
        uploader.stdout.on('data', (text) => {
          lines += text;
          const complete = lines.slice(0, lines.lastIndexOf('\\n'));
          if (complete === '') return;
          tally = JSON.parse(complete.slice(complete.lastIndexOf('\\n') + 1));
          firstTallyAt ??= Date.now();
          const held = rpc.bodyBudget ? rpc.bodyBudget.inUse / 999_000 : -1;
          if (tally.unanswered !== held && Date.now() - firstTallyAt < 20_000) return;
          uploader.stdout.removeAllListeners('data');
          release(held);
        });
        function release(held) {
          peak = Math.max(peak, process.memoryUsage.rss());
          // What the server still holds once garbage is collected: the held uploads' bytes.
          collectGarbage();
          const bufferGrowth = process.memoryUsage().arrayBuffers - bufferBaseline;
          const handledDuringUploads = handled;
          uploader.kill('SIGKILL');
          // Every held upload's connection dies with the uploader: their bytes must come back.
          const started = Date.now();
          const waitForRelease = setInterval(async () => {
            if (rpc.bodyBudget?.inUse !== 0 && Date.now() - started < 10_000) return;
            clearInterval(waitForRelease);
            clearInterval(sampler);
            const answer = await fetch('http://127.0.0.1:' + server.address().port, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', method: 'Thing.put', params: ['after'], id: 1 }),
            });
            finish({ exceeded: false, tally, held, bufferGrowth, inUseAfter: rpc.bodyBudget?.inUse, handledDuringUploads, after: await answer.json() });
          }, 20);
        }
      `);
    expect(result.exceeded).toBe(false);
    expect(result.growth).toBeLessThan(result.allowed);
    // Beside the held uploads, the refused ones' last chunks on sockets still closing (0-13 MB seen).
    expect(result.bufferGrowth).toBeLessThan(result.budget + 32 * 1024 * 1024);
    // The uploads whose bytes fit were held (each holds the 999,000 bytes it sent); every other one
    // was told 503 by the first chunk that did not fit.
    expect(result.held).toBeGreaterThan(0);
    expect(Number.isInteger(result.held)).toBe(true);
    expect(result.held).toBeLessThanOrEqual(Math.floor(result.budget / 999_000));
    expect(result.tally).toStrictEqual({ refused: 2000 - result.held, other: 0, silent: 0, unanswered: result.held });
    expect(result.handledDuringUploads).toBe(0);
    expect(result.inUseAfter).toBe(0);
    expect(result.after).toStrictEqual({ jsonrpc: '2.0', result: 5, id: 1 });
  }, 90_000);

  it('IDL methods named toString, valueOf, hasOwnProperty: a handler without them fails at start-up', async () => {
    const result = await runCase(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      const outcomes = [];
      for (const name of ['toString', 'valueOf', 'hasOwnProperty']) {
        const idl = ${thingIdl('toString', 'valueOf', 'hasOwnProperty')};
        idl.interfaces[0].methods = idl.interfaces[0].methods.filter((method) => method.name === name);
        try {
          const server = createRpcServer({ idl, handlers: { Thing: {} } });
          outcomes.push('started, and answered ' + JSON.stringify(await server.handleJson({ jsonrpc: '2.0', method: 'Thing.' + name, params: ['x'], id: 1 })));
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      console.log(JSON.stringify(outcomes));
    `);
    expect(result).toStrictEqual(
      ['toString', 'valueOf', 'hasOwnProperty'].map((name) => `createRpcServer: the handler of Thing has no method ${name}`),
    );
  });

  it('"id": 1e400 (Infinity after parsing) is an Invalid Request, and the method does not run', async () => {
    const result = await runCase(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      let runs = 0;
      const server = createRpcServer({ idl: ${thingIdl('put')}, handlers: { Thing: { put: () => ++runs } } });
      const post = (body) => server.handleHttp({ method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' } });
      const single = await post('{"jsonrpc":"2.0","method":"Thing.put","params":["a"],"id":1e400}');
      const batch = await post('[{"jsonrpc":"2.0","method":"Thing.put","params":["a"],"id":-1e400},{"jsonrpc":"2.0","method":"Thing.put","params":["b"],"id":2}]');
      console.log(JSON.stringify({ single: JSON.parse(single.body), batch: JSON.parse(batch.body), runs }));
    `);
    const invalid = { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: id must be a finite number' }, id: null };
    expect(result.single).toStrictEqual(invalid);
    expect(result.batch).toStrictEqual([invalid, { jsonrpc: '2.0', result: 1, id: 2 }]);
    expect(result.runs).toBe(1);
  });

  it('a batch of 100 calls with NUL that a handler fails on logs a line each, no stack, with the default logger', async () => {
    const run = await runHostileScript(`
      const { createRpcServer } = await import(DIST + 'runtime/index.js');
      // Like PostgreSQL, which refuses NUL in text.
      const put = (text) => { if (text.includes('\\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00'); return 1; };
      const server = createRpcServer({ idl: ${thingIdl('put')}, handlers: { Thing: { put } } });
      const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', method: 'Thing.put', params: ['victim' + i + '\\u0000'], id: i })));
      const answer = await server.handleHttp({ method: 'POST', path: '/', body, headers: { 'content-type': 'application/json' } });
      console.log(JSON.stringify({ codes: [...new Set(JSON.parse(answer.body).map((response) => response.error.code))], requestBytes: body.length }));
    `);
    expect(run.hung, 'hung').toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(hasStackTrace(run.stderr), run.stderr).toBe(false);
    const result = JSON.parse(run.stdout.trim());
    expect(result.codes).toEqual([-32603]);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(100);
    expect(lines[0]).toBe(
      'Thing.put failed on its input (params[0] holds a NUL character (\\u0000) at index 7): "invalid byte sequence for encoding \\"UTF8\\": 0x00"',
    );
    // A stack per call logged twelve times the request's size.
    expect(run.stderr.length).toBeLessThan(2 * result.requestBytes);
  });

  it('the fetch handler answers 400 when the request body stream fails, instead of rejecting', async () => {
    const result = await runCase(`
      const { createRpcServer, createFetchHandler } = await import(DIST + 'runtime/index.js');
      const rpc = createRpcServer({ idl: ${thingIdl('put')}, handlers: { Thing: { put: () => 1 } } });
      const handle = createFetchHandler(rpc);
      const body = new ReadableStream({
        start(controller) { controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",')); },
        pull(controller) { controller.error(new Error('connection reset by peer')); },
      });
      const request = new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' });
      try {
        const response = await handle(request);
        console.log(JSON.stringify({ status: response.status, body: await response.json(), inUse: rpc.bodyBudget?.inUse }));
      } catch (error) {
        console.log(JSON.stringify({ rejected: String(error) }));
      }
    `);
    expect(result).toStrictEqual({ status: 400, body: { error: 'Bad Request', message: 'the request body could not be read' }, inUse: 0 });
  });

  it('a cross-site POST (text/plain, a form, no Content-Type) gets 415 and runs nothing, on both bindings', async () => {
    const result = await runCase(`
      const { createRpcServer, listen } = await import(DIST + 'runtime/index.js');
      let runs = 0;
      const rpc = createRpcServer({ idl: ${thingIdl('put')}, handlers: { Thing: { put: () => ++runs } } });
      const server = await listen(rpc, { port: 0, host: '127.0.0.1' });
      const base = 'http://127.0.0.1:' + server.address().port;
      const call = JSON.stringify({ jsonrpc: '2.0', method: 'Thing.put', params: ['x'], id: 1 });
      const named = JSON.stringify({ text: 'x' });
      const answers = {};
      // What a foreign page can send without a preflight: fetch's string body (text/plain), a
      // form (urlencoded, multipart, text/plain), and a Blob or ArrayBuffer body (no Content-Type).
      const kinds = {
        'string body': (body) => ({ body }),
        'form, urlencoded': (body) => ({ body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        'form, multipart': (body) => ({ body, headers: { 'content-type': 'multipart/form-data; boundary=b' } }),
        'form, text/plain': (body) => ({ body, headers: { 'content-type': 'text/plain' } }),
        'Blob body': (body) => ({ body: new Blob([body]) }),
        'ArrayBuffer body': (body) => ({ body: new TextEncoder().encode(body).buffer }),
      };
      for (const [kind, init] of Object.entries(kinds)) {
        for (const [path, body] of [['/', call], ['/Thing/put', named]]) {
          const response = await fetch(base + path, { method: 'POST', ...init(body) });
          answers[kind + ' ' + path] = response.status + ' ' + (await response.text());
        }
      }
      const runsAfterForeign = runs;
      const json = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: call });
      console.log(JSON.stringify({ answers, runsAfterForeign, json: await json.json(), runs }));
      server.close();
      server.closeAllConnections();
    `);
    expect(Object.keys(result.answers)).toHaveLength(12);
    for (const answer of Object.values(result.answers)) {
      expect(answer).toBe('415 {"error":"Unsupported Media Type","message":"Content-Type must be application/json"}');
    }
    expect(result.runsAfterForeign).toBe(0);
    expect(result.json).toStrictEqual({ jsonrpc: '2.0', result: 1, id: 1 });
    expect(result.runs).toBe(1);
  });
});
