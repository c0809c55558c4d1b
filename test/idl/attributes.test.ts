import { describe, expect, test } from 'vitest';
import { canonicalContractText, checkIdl, parseIdl, printIdl, toIdlJson } from '../../src/idl/index.js';

const SHOP = `namespace shop

struct Item {
    quantity int [max=99 , min=1]
    name string [optional]
    code string [pattern="^[A-Z]{3}\\\\d+$", maxLength=12]
    tags []string [default=["a", "b"], optional, maxItems=10]
}

interface Shop {
    list(cursor string [optional], perPage int [max=100,optional, default=30]) []Item [maxItems=100]
}
`;

function modelOf(source: string) {
  const result = checkIdl(parseIdl(source, 'shop.idl'));
  if (!result.model) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.model;
}

describe('attribute lists: syntax, formatter, JSON form and checksum', () => {
  test('a list parses with its items, values and spans; a plain [optional] stays a flag only', () => {
    const file = parseIdl(SHOP, 'shop.idl');
    const item = file.declarations.find((d) => d.kind === 'struct')!;
    const [quantity, name, code] = item.kind === 'struct' ? item.fields : [];
    expect(quantity.attributes?.map((a) => [a.name.text, a.value?.value])).toEqual([
      ['max', 99],
      ['min', 1],
    ]);
    expect(quantity.attributes?.[1].value?.span.start).toMatchObject({ line: 4, column: 32 });
    expect(name).toMatchObject({ optional: true });
    expect(name.attributes).toBeUndefined();
    expect(code.attributes?.[0].value?.value).toBe('^[A-Z]{3}\\d+$');
  });

  test('parameters and returns take lists too; `optional` sets the flag', () => {
    const file = parseIdl(SHOP, 'shop.idl');
    const iface = file.declarations.find((d) => d.kind === 'interface')!;
    const method = iface.kind === 'interface' ? iface.methods[0] : undefined;
    expect(method?.parameters.map((p) => [p.name.text, p.optional])).toEqual([
      ['cursor', true],
      ['perPage', true],
    ]);
    expect(method?.returnAttributes?.map((a) => a.name.text)).toEqual(['maxItems']);
    expect(method?.returnOptional).toBe(false);
  });

  test('the formatter prints each list in canonical order and is stable', () => {
    const printed = printIdl(parseIdl(SHOP, 'shop.idl'));
    expect(printed).toContain('    quantity     int       [min=1, max=99]\n');
    expect(printed).toContain('    code         string    [maxLength=12, pattern="^[A-Z]{3}\\\\d+$"]\n');
    expect(printed).toContain('    tags         []string  [optional, default=["a","b"], maxItems=10]\n');
    expect(printed).toContain('list(cursor string [optional], perPage int [optional, default=30, max=100]) []Item [maxItems=100]');
    expect(printIdl(parseIdl(printed, 'shop.idl'))).toBe(printed);
  });

  test('the JSON form carries optional, default and constraints (in canonical order) only where written', () => {
    const json = toIdlJson(modelOf(SHOP));
    const fields = json.structs?.[0].fields ?? [];
    expect(fields[0]).toEqual({ name: 'quantity', type: { builtIn: 'int' }, constraints: { min: 1, max: 99 } });
    expect(Object.keys(fields[0].constraints ?? {})).toEqual(['min', 'max']);
    expect(fields[1]).toEqual({ name: 'name', type: { builtIn: 'string' }, optional: true });
    expect(fields[3]).toMatchObject({ optional: true, default: ['a', 'b'], constraints: { maxItems: 10 } });
    const method = json.interfaces?.[0].methods?.[0];
    expect(method?.parameters).toEqual([
      { name: 'cursor', type: { builtIn: 'string' }, optional: true },
      { name: 'perPage', type: { builtIn: 'int' }, optional: true, default: 30, constraints: { max: 100 } },
    ]);
    expect(method?.returnConstraints).toEqual({ maxItems: 100 });
  });

  test('a null default is kept as a default', () => {
    const json = toIdlJson(modelOf('namespace a\nstruct S {\n    note json [optional, default=null]\n}\n'));
    expect(json.structs?.[0].fields?.[0]).toHaveProperty('default', null);
  });

  test('the checksum text names each attribute in canonical order; the written order does not matter', () => {
    const text = canonicalContractText(modelOf(SHOP));
    expect(text).toContain('    param:perPage:int:optional\n      attribute:default=30\n      attribute:max=100\n');
    expect(text).toContain('  field:quantity:int\n    attribute:min=1\n    attribute:max=99\n');
    expect(text).toContain('    returns:[]shop.Item\n      attribute:maxItems=100\n');
    const reordered = SHOP.replace('[max=99 , min=1]', '[min=1, max=99]');
    expect(toIdlJson(modelOf(reordered)).checksum).toBe(toIdlJson(modelOf(SHOP)).checksum);
    expect(toIdlJson(modelOf(SHOP.replace('max=99', 'max=98'))).checksum).not.toBe(toIdlJson(modelOf(SHOP)).checksum);
  });

  test('an IDL whose only attribute is [optional] gives the same JSON and checksum as before attribute lists', () => {
    const source = 'namespace a\nstruct S {\n    x int [optional]\n}\ninterface I {\n    get(id string) S [optional]\n}\n';
    const json = toIdlJson(modelOf(source));
    expect(JSON.stringify(json.structs)).toBe(
      '[{"name":"S","namespace":"a","fields":[{"name":"x","type":{"builtIn":"int"},"optional":true}]}]',
    );
    expect(canonicalContractText(modelOf(source))).toBe(
      'namespace:a\ninterface:a.I\n  method:get\n    param:id:string\n    returns:a.S\n    returnOptional:true\nstruct:a.S\n  field:x:int:optional\n',
    );
  });

  test('a default that is not one JSON value is a located syntax error', () => {
    expect(() => parseIdl('namespace a\nstruct S {\n    x []int [default=[1,]]\n}\n', 'a.idl')).toThrow(
      /a\.idl:3:22: error: default takes one JSON value/,
    );
  });

  test('an unclosed list, a missing value and an unclosed quote are located syntax errors', () => {
    const errorOf = (line: string) => () => parseIdl(`namespace a\nstruct S {\n    ${line}\n}\n`, 'a.idl');
    expect(errorOf('x int [min=1')).toThrow(/a\.idl:3:17: error: expected '\]' or ','/);
    expect(errorOf('x int [min=]')).toThrow(/a\.idl:3:16: error: expected a value such as 1 or "text"/);
    expect(errorOf('x string [pattern="abc]')).toThrow(/a\.idl:3:23: error: the text has no closing quote/);
  });
});
