/**
 * A baseline from the IDL JSON (what `rpc-idl` serves) compares like one from the IDL text, with
 * removals located at the JSON file alone (it holds no positions).
 */
import { expect, test } from 'vitest';
import { checkBreaking, contractFromJson, contractFromModel } from '../../src/breaking/index.js';
import { idlJsonProblem } from '../../src/breaking/idl-json-shape.js';
import { toIdlJson } from '../../src/idl/index.js';
import { compileText } from './compare-texts.js';

const before = `namespace shop
import "common.idl"
struct Item {
    a int
    b int
}
errors {
    1 Gone "gone"
}
interface S {
    get(id string) Item raises(Gone, common.Missing)
    put(item Item, money common.Money) bool
}
`;
const after = `namespace shop
import "common.idl"
struct Item {
    a int
}
errors {
    1 Gone "gone"
}
interface S {
    get(id string) Item raises(Gone, common.Missing)
    put(money common.Money, item Item) bool
}
`;
const common = 'namespace common\nstruct Money {\n    cents int\n}\nerrors {\n    9 Missing "missing"\n}\n';

test('the same changes from the JSON form as from the IDL, removals at the JSON file', () => {
  const oldModel = compileText(before, 'api.idl', { 'common.idl': common });
  const newModel = compileText(after, 'api.idl', { 'common.idl': common });
  const fromJson = checkBreaking({
    before: contractFromJson(toIdlJson(oldModel), 'served.json'),
    after: contractFromModel(newModel),
    sources: new Map(),
  });
  const fromIdl = checkBreaking({ before: contractFromModel(oldModel), after: contractFromModel(newModel), sources: new Map() });
  const summary = (changes: typeof fromIdl.changes) => changes.map((c) => `${c.rule} ${c.level} ${c.subject}`).sort();
  expect(summary(fromJson.changes)).toEqual(summary(fromIdl.changes));
  expect(summary(fromJson.changes)).toEqual(['field-removed wire Item.b', 'param-reordered wire S.put']);
  expect(fromJson.changes.find((c) => c.rule === 'field-removed')?.location).toEqual({ file: 'served.json' });
});

test('a served JSON baseline tells a stream method from a plain one, both ways', () => {
  const plain = compileText('namespace shop\ninterface S {\n    watch(id string) int\n}\n', 'api.idl', {});
  const stream = compileText('namespace shop\ninterface S {\n    watch(id string) stream int\n}\n', 'api.idl', {});
  const summary = (before: typeof plain, after: typeof plain) =>
    checkBreaking({
      before: contractFromJson(toIdlJson(before), 'served.json'),
      after: contractFromModel(after),
      sources: new Map(),
    }).changes.map((c) => `${c.rule} ${c.level} ${c.subject}`);
  expect(summary(plain, stream)).toEqual(['method-stream-changed wire S.watch']);
  expect(summary(stream, plain)).toEqual(['method-stream-changed wire S.watch']);
  expect(summary(stream, stream)).toEqual([]);
});

test('a baseline whose method has a stream member other than true is refused with its JSON path', () => {
  const json = {
    rootNamespace: 'shop',
    interfaces: [{ name: 'S', methods: [{ name: 'watch', returnType: { builtIn: 'int' }, stream: 'yes' }] }],
  };
  expect(idlJsonProblem(json)).toBe('interfaces[0].methods[0].stream: expected true or nothing');
  expect(
    idlJsonProblem({ ...json, interfaces: [{ name: 'S', methods: [{ name: 'watch', returnType: { builtIn: 'int' }, stream: true }] }] }),
  ).toBe(undefined);
});
