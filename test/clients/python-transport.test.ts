/**
 * What the generated Python client puts on the wire: positional params in IDL order with the
 * optional ones left out at the end trimmed, values converted to their wire form (unions with their
 * discriminator, timestamps with their offset, bytes as base64), the contract header of each
 * interface (a batch: the list of its interfaces'), the transport's headers, and the Accept header
 * of a stream. A Node server in this process records the requests; the client runs in python3.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { generatePythonPackage, pythonMissing, pythonPath, run } from './python.js';

const fixtureIdl = fileURLToPath(new URL('./fixtures/every-construct.idl', import.meta.url));
const missing = pythonMissing();
const requests: { headers: IncomingHttpHeaders; body: unknown }[] = [];
let server: Server;
let url: string;
let folder: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text);
      requests.push({ headers: request.headers, body });
      const answer = (call: { id: number }) =>
        request.headers.accept === 'text/event-stream'
          ? { jsonrpc: '2.0', id: call.id, error: { code: 3002, message: 'None: nothing' } }
          : { jsonrpc: '2.0', id: call.id, result: null };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  if (!missing) folder = await generatePythonPackage(fixtureIdl);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  if (folder) await rm(folder, { recursive: true, force: true });
});

const script = `
import datetime, sys
sys.path.insert(0, sys.argv[1])
import json_ as j
t = j.Transport(sys.argv[2], headers={"x-test": "1"})
client = j.DefClient(t)
at = datetime.datetime(2026, 1, 31, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
for call in (lambda: client.lambda_("x"), lambda: client.lambda_("x", None, 2.5),
             lambda: client.get_thing(j.PaymentCard(number="1", expires=at), at, b"\\x01")):
    try:
        call()
    except j.InvalidResultError as error:
        print(error.message)
with t.batch() as batch:
    echoed = batch.add(client.call_call({"a": [1]}))
    price = batch.add(j.common.LookupClient(t).price_call("sku"))
print(echoed.result(), price.result())
try:
    list(client.list_())
except j.NoneError as error:
    print(type(error).__name__, error.code)
`;

describe('the generated Python client on the wire', () => {
  it('sends params, the contract header and the transport headers as the TypeScript client does', async (context) => {
    if (missing) return context.skip(missing);
    const result = await run(pythonPath, ['-c', script, folder, url]);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'Transport error: invalid result of def.lambda: result: expected an object, got null',
      'Transport error: invalid result of def.lambda: result: expected an object, got null',
      'None None',
      'NoneError 3002',
      '',
    ]);
    const fingerprints = interfaceFingerprints(toIdlJson(compileIdl(readFileSync(fixtureIdl, 'utf8'), fixtureIdl)));
    const [first, second, third, batch, stream] = requests;
    expect(first.body).toMatchObject({ jsonrpc: '2.0', method: 'def.lambda', params: ['x'] });
    expect(second.body).toMatchObject({ method: 'def.lambda', params: ['x', null, 2.5] });
    expect(third.body).toMatchObject({
      method: 'def.getThing',
      params: [{ type: 'card', number: '1', expires: '2026-01-31T12:00:00+02:00' }, '2026-01-31T12:00:00+02:00', 'AQ=='],
    });
    for (const request of [first, second, third, stream]) {
      expect(request.headers['x-idlrpc-contract']).toBe(fingerprints.get('def'));
      expect(request.headers['x-test']).toBe('1');
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(batch.body).toMatchObject([
      { method: 'def.call', params: [{ a: [1] }] },
      { method: 'common.Lookup.price', params: ['sku'] },
    ]);
    expect(batch.headers['x-idlrpc-contract']).toBe(`${fingerprints.get('def')}, ${fingerprints.get('common.Lookup')}`);
    expect(stream.headers.accept).toBe('text/event-stream');
    expect(stream.body).toMatchObject({ method: 'def.list', params: [] });
    expect(requests).toHaveLength(5);
  });
});
