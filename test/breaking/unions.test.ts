/**
 * Unions in the breaking-change check beyond the rule table: a JSON baseline (what `rpc-idl`
 * serves) reports the same union changes as an IDL one, and the messages name the direction.
 */
import { expect, test } from 'vitest';
import { checkBreaking, contractFromJson, contractFromModel } from '../../src/breaking/index.js';
import { toIdlJson } from '../../src/idl/index.js';
import { compareTexts, compileText } from './compare-texts.js';

const STRUCTS = 'struct Card {\n    number string\n}\nstruct Transfer {\n    iban string\n}\n';
const before = `namespace shop\n${STRUCTS}union Payment {\n    card Card\n}\ninterface S {\n    get() Payment\n}\n`;
const after = `namespace shop\n${STRUCTS}union Payment [discriminator=type] {\n    card Card\n    bank Transfer\n}\ninterface S {\n    get() Payment\n}\n`;

test('a JSON baseline reports the union changes an IDL baseline reports', () => {
  const newModel = compileText(after);
  const fromJson = checkBreaking({
    before: contractFromJson(toIdlJson(compileText(before, 'old/api.idl')), 'old.json'),
    after: contractFromModel(newModel),
    sources: new Map([['api.idl', after]]),
  });
  const fromIdl = compareTexts(before, after);
  const rules = (report: typeof fromIdl) => report.changes.map((c) => `${c.rule} ${c.level} ${c.subject}`).sort();
  expect(rules(fromJson)).toEqual(['union-discriminator-changed wire Payment', 'union-variant-added wire Payment.bank']);
  expect(rules(fromJson)).toEqual(rules(fromIdl));
});

test('messages say where the union travels and what old clients meet', () => {
  const messages = compareTexts(before, after).changes.map((c) => c.message);
  expect(messages).toContain(
    'variant bank is added to union Payment, which travels in responses: old clients may receive a tag they do not know',
  );
  expect(messages).toContain("the discriminator of union Payment changes from 'kind' to 'type', which travels in responses");
});
