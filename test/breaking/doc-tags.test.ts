/**
 * Doc tags are documentation: adding or removing `@deprecated` or `@example`, and adding
 * `@readonly`, breaks nothing, whether the baseline is IDL text or the JSON form (which carries the
 * tags); a new deprecation is reported as a safe change. Removing `@readonly` breaks the method's
 * reads over GET (rules.table.test.ts).
 */
import { expect, test } from 'vitest';
import { checkBreaking, contractFromJson, contractFromModel } from '../../src/breaking/index.js';
import { toIdlJson } from '../../src/idl/index.js';
import { compareTexts, compileText } from './compare-texts.js';

const plain = `namespace shop
enum Size {
    small
    large
}
struct Item {
    id  string
}
interface S {
    get(id string) Item
}
`;
const tagged = `namespace shop
// @example "small"
enum Size {
    small
    // @deprecated
    large
}
// @deprecated use Thing
// @example {"id": "a"}
struct Item {
    // @deprecated
    id  string
}
interface S {
    // @readonly
    // @deprecated
    // @example {"id": "a"}
    get(id string) Item
}
`;

test('adding tags reports each new deprecation as safe; removing them reports only the lost @readonly', () => {
  expect(compareTexts(plain, tagged).changes.map((c) => `${c.rule} ${c.level} ${c.message}`)).toEqual([
    'deprecated safe struct Item is deprecated',
    'deprecated safe field Item.id is deprecated',
    'deprecated safe method S.get is deprecated',
  ]);
  expect(compareTexts(tagged, plain).changes.map((c) => `${c.rule} ${c.level} ${c.message}`)).toEqual([
    'readonly-removed wire method S.get is no longer @readonly: its GETs (reads over GET) answer 405',
  ]);
});

test('a JSON baseline carries its deprecations: the same tags are no change', () => {
  const json = JSON.parse(JSON.stringify(toIdlJson(compileText(tagged))));
  const report = checkBreaking({
    before: contractFromJson(json, 'old.json'),
    after: contractFromModel(compileText(tagged)),
    sources: new Map(),
  });
  expect(report.changes).toEqual([]);
});

test('a JSON baseline with tags compares like IDL text with them: only the lost @readonly is reported', () => {
  const json = JSON.parse(JSON.stringify(toIdlJson(compileText(tagged))));
  expect(json.structs[0].deprecated).toBe('use Thing');
  const report = checkBreaking({
    before: contractFromJson(json, 'old.json'),
    after: contractFromModel(compileText(plain)),
    sources: new Map(),
  });
  expect(report.changes.map((c) => c.rule)).toEqual(['readonly-removed']);
});
