/**
 * Every conversion rule and warning of docs/openapi.md, one minimal document each, with the exact IDL
 * expected; every result must also check clean with our compiler.
 */
import { describe, expect, it } from 'vitest';
import { openApiToIdl } from '../../src/openapi/index.js';
import { expectChecksClean } from './helpers.js';
import { ruleCases } from './rule-cases.js';

describe('OpenAPI -> IDL rules', () => {
  it.each(ruleCases.map((c) => [c.name, c] as const))('%s', (_name, rule) => {
    const input = typeof rule.document === 'string' ? { text: rule.document, fileName: 'doc.yaml' } : { document: rule.document };
    const result = openApiToIdl(input, { binary: rule.binary ?? 'error' });
    expect(result.idl).toBe(rule.idl);
    expect(result.warnings.map((w) => w.pointer)).toEqual(rule.warnings.map(([pointer]) => pointer));
    result.warnings.forEach((warning, i) => {
      expect(warning.message).toContain(rule.warnings[i][1]);
    });
    expectChecksClean(result.idl);
  });
});
