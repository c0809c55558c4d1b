import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkIdl, parseIdl, printIdl, toIdlJson } from '../../src/index.js';
import { randomIdlFile } from './random-idl.js';
import { stripSpans } from './strip-spans.js';

describe('printIdl and parseIdl round trip (property)', () => {
  test('random valid models: print, parse back, same model', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const file = randomIdlFile(g);
        expect(checkIdl(file).diagnostics).toEqual([]);
        const text = printIdl(file);
        const parsed = parseIdl(text, 'random.idl');
        expect(stripSpans(parsed)).toEqual(stripSpans(file));
        const checked = checkIdl(parsed);
        expect(checked.diagnostics).toEqual([]);
        // Printing is stable, and the contract (JSON and checksum) survives the trip.
        expect(printIdl(parsed)).toBe(text);
        expect(toIdlJson(checked.model!)).toEqual(toIdlJson(checkIdl(file).model!));
      }),
      { numRuns: 300 },
    );
  });

  test('CRLF and a missing final newline do not change the parsed model', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const file = randomIdlFile(g);
        const text = printIdl(file);
        const variant = text.replace(/\n/g, '\r\n').replace(/\r\n$/, '');
        expect(stripSpans(parseIdl(variant, 'random.idl'))).toEqual(stripSpans(file));
      }),
      { numRuns: 100 },
    );
  });
});
