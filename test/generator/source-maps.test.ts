/**
 * `idlrpc -plugin ts-client-server -source-map`: a source map beside each generated `.ts`, linked
 * from it, naming the IDL relative to the output, so a position in a generated client method maps
 * back to the IDL method. Without the flag, no map is written.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { expect, test } from 'vitest';
import { checkoutIdl, freshDir, idlrpc, multiFileIdl, readTree } from './helpers.js';

const generate = (dir: string, idl: string, ...flags: string[]) => idlrpc(['-plugin', 'ts-client-server', '-dir', dir, ...flags, idl]);

test('-source-map writes a linked map beside types.ts, client.ts and server.ts, into the IDL', async () => {
  const dir = freshDir('source-maps');
  expect((await generate(dir, checkoutIdl, '-source-map')).code).toBe(0);
  const files = readTree(dir);
  for (const part of ['types', 'client', 'server']) {
    expect(files[`${part}.ts`].endsWith(`\n//# sourceMappingURL=${part}.ts.map\n`)).toBe(true);
    expect(JSON.parse(files[`${part}.ts.map`])).toMatchObject({
      version: 3,
      file: `${part}.ts`,
      sources: [path.relative(dir, checkoutIdl).split(path.sep).join('/')],
    });
  }
  const client = files['client.ts'];
  const map = new SourceMap(JSON.parse(files['client.ts.map']) as SourceMapPayload);
  const idlLines = readFileSync(checkoutIdl, 'utf8').split('\n');
  const before = client.slice(0, client.indexOf('  addToCart(')).split('\n');
  // Inside the method's body too: a stack trace shows the line of the call.
  const body = client.slice(0, client.indexOf('return callMethod', client.indexOf('  addToCart('))).split('\n');
  for (const [line, column] of [
    [before.length - 1, 2],
    [body.length - 1, body.at(-1)!.length],
  ]) {
    expect(map.findEntry(line, column)).toMatchObject({ originalLine: idlLines.findIndex((text) => text.includes('addToCart(')) });
  }
});

test('-source-map names each file of a multi-file IDL relative to the generated file that uses it', async () => {
  const dir = freshDir('source-maps-multi');
  expect((await generate(dir, multiFileIdl, '-source-map')).code).toBe(0);
  const maps = Object.entries(readTree(dir)).filter(([name]) => name.endsWith('.ts.map'));
  expect(maps.length).toBeGreaterThan(3);
  for (const [name, text] of maps) {
    for (const source of (JSON.parse(text) as { sources: string[] }).sources) {
      const idlFile = path.resolve(dir, path.dirname(name), source);
      expect(readFileSync(idlFile, 'utf8'), `${name} names ${source}`).toMatch(/\S/);
      expect(idlFile.endsWith('.idl')).toBe(true);
    }
  }
});

test('without -source-map no map is written and no file links one', async () => {
  const dir = freshDir('source-maps-off');
  expect((await generate(dir, checkoutIdl)).code).toBe(0);
  const files = readTree(dir);
  expect(Object.keys(files).filter((name) => name.endsWith('.map'))).toEqual([]);
  expect(Object.values(files).some((text) => text.includes('sourceMappingURL'))).toBe(false);
});
