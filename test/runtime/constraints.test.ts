/**
 * The constraints of attribute lists in validators: the ones generated ahead of time (types.ts) and
 * the ones the runtime builds from the JSON form check alike. For each constraint a value at the
 * bound passes and one past it fails, with its path and message.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileValidators, type ValidatorTable } from '../../runtime/validation.js';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const IDL = `namespace shop

struct Item {
    quantity  int        [min=1, max=99]
    price     float      [exclusiveMin=0, exclusiveMax=1000, multipleOf=0.5]
    name      string     [minLength=2, maxLength=5]
    code      string     [pattern="[0-9]{3}"]
    tags      []string   [optional, maxItems=2, maxLength=3]
    counts    map[string]int [optional, max=10]
    contact   string     [optional, format="email"]
}

interface Shop {
    put(item Item, id string [format="uuid"], host string [format="hostname"], ip string [format="ipv4"], ip6 string [format="ipv6"], link string [format="uri"], size int [min=0, max=10]) bool
}
`;

const VALID = { quantity: 1, price: 0.5, name: 'ab', code: 'x123' };
const OTHERS = ['123e4567-e89b-12d3-a456-426614174000', 'example.com', '192.168.0.1', '2001:db8::1', 'https://example.com/a?b=c', 0];

const tables: Record<string, ValidatorTable> = {};

/** The validators of the module generated from `idl` (written to a file and imported). */
async function generatedValidators(idl: string, name: string): Promise<ValidatorTable> {
  const { js } = generateModule(compileIdl(idl, `${name}.idl`), {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: `${name}.idl`,
  });
  const dir = path.join(repoRoot, 'test-output/runtime/constraints');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${name}-${process.pid}.mjs`);
  writeFileSync(out, js);
  return (await import(pathToFileURL(out).href)).validators;
}

beforeAll(async () => {
  tables.runtime = compileValidators(toIdlJson(compileIdl(IDL, 'shop.idl')));
  tables.generated = await generatedValidators(IDL, 'shop');
});

const problemsOf = (table: ValidatorTable, index: number, value: unknown) => {
  const validator = table['Shop.put'].params[index];
  return validator.check(value) ? [] : validator.errors(value).map((issue) => `${issue.path.join('/')}: ${issue.message}`);
};

describe.each(['generated', 'runtime'])('%s validators', (which) => {
  const item = (value: unknown) => problemsOf(tables[which], 0, value);
  const param = (index: number, value: unknown) => problemsOf(tables[which], index, value);

  it('accept values at every bound', () => {
    expect(item(VALID)).toEqual([]);
    expect(item({ ...VALID, quantity: 99, price: 999.5, name: '😀😀😀😀😀', tags: ['abc', '😀😀😀'], counts: { a: 10 } })).toEqual([]);
    expect(item({ ...VALID, contact: 'a.b+c@example.com' })).toEqual([]);
    for (const [i, value] of OTHERS.entries()) expect(param(i + 1, value)).toEqual([]);
    expect(param(6, 10)).toEqual([]);
  });

  it('list every value past a bound with its path', () => {
    expect(item({ quantity: 0, price: 0, name: 'a', code: '12', tags: ['a', 'b', 'c'], counts: { a: 11 }, contact: 'no' })).toEqual([
      'quantity: expected a value >= 1',
      'price: expected a value > 0',
      'name: too short: at least 2 characters, got 1',
      'code: expected a string matching /[0-9]{3}/u',
      'tags: too many items: at most 2, got 3',
      'counts/a: expected a value <= 10',
      'contact: expected an email address (local@domain) or null',
    ]);
    expect(item({ ...VALID, quantity: 100, price: 1000.25, name: 'abcdef', tags: ['abcd'] })).toEqual([
      'quantity: expected a value <= 99',
      'price: expected a value < 1000',
      'price: expected a multiple of 0.5',
      'name: too long: at most 5 characters, got 6',
      'tags/0: too long: at most 3 characters, got 4',
    ]);
  });

  it('check the formats', () => {
    expect(param(1, '123e4567-e89b-12d3-a456-42661417400')).toEqual([': expected a UUID (8-4-4-4-12 hexadecimal digits)']);
    expect(param(2, '-bad.example')).toEqual([': expected a hostname (RFC 1123)']);
    expect(param(3, '192.168.0.01')).toEqual([': expected an IPv4 address (dotted decimal, no leading zeros)']);
    expect(param(4, '2001:db8:::1')).toEqual([': expected an IPv6 address (RFC 4291 text form, no zone)']);
    expect(param(5, '/relative')).toEqual([': expected an absolute URI (RFC 3986)']);
    expect(param(6, 11)).toEqual([': expected a value <= 10']);
    expect(param(6, -1)).toEqual([': expected a value >= 0']);
  });

  it('reads the pattern with the u flag, as a search', () => {
    expect(param(0, { ...VALID, code: 'ab 123 cd' })).toEqual([]);
  });
});

// The generator marks where IDL names are printed with control characters (SOH, STX, ETX) and, before
// them, with characters of the private use area: a pattern may hold any of them raw.
it('a pattern holding the characters that mark source positions in printed code compiles and matches them', async () => {
  const marks = ['\u0001', '\u0002', '\u0003', '\uE000'];
  const fields = marks.map((mark, i) => `    f${i} string [optional, pattern="^a${mark}b$"]`).join('\n');
  const idl = `namespace odd\n\nstruct Marked {\n${fields}\n}\n\ninterface Odd {\n    put(m Marked) bool\n}\n`;
  const validator = (await generatedValidators(idl, 'odd'))['Odd.put'].params[0];
  marks.forEach((mark, i) => {
    expect(validator.check({ [`f${i}`]: `a${mark}b` })).toBe(true);
    expect(validator.check({ [`f${i}`]: 'ab' })).toBe(false);
  });
});
