import { expect, test } from 'vitest';
import { IDL_ID_FILTER, idlFileOfId, isIdlId } from './idl-id.js';

test('an id is an .idl module when its path, before the query, ends in .idl', () => {
  for (const id of [
    '/src/checkout.idl',
    '/src/checkout.idl?import',
    '/src/checkout.idl?v=1&import',
    'C:/app/a.idl?x=.js',
    '/src/a.idl?v=raw',
    '/src/a.idl?rawness',
  ]) {
    expect(IDL_ID_FILTER.test(id), id).toBe(true);
    expect(isIdlId(id), id).toBe(true);
  }
});

test('.idl in the query, or a longer extension, does not make an .idl module', () => {
  for (const id of [
    '/.env.local?import&x.idl',
    '/etc/passwd?x.idl',
    '/key.pem?a.idl?b',
    '/src/checkout.idl.d.ts',
    '/src/checkout.idlx',
    '/src/idl',
    '/src/checkout.idl?raw',
    '/src/checkout.idl?import&raw',
    '/src/checkout.idl?url',
  ]) {
    expect(IDL_ID_FILTER.test(id), id).toBe(false);
    expect(isIdlId(id), id).toBe(false);
  }
  expect(isIdlId(undefined)).toBe(false);
});

test('idlFileOfId drops the query', () => {
  expect(idlFileOfId('/src/checkout.idl?import&v=2')).toBe('/src/checkout.idl');
  expect(idlFileOfId('/src/checkout.idl')).toBe('/src/checkout.idl');
});
