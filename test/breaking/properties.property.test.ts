/**
 * Properties of the breaking-change check over random valid IDL (test/idl/random-idl.ts):
 * reordering and comments report nothing; each rule's mutator reports exactly that rule; additions
 * of an interface, a method or an optional field never break at `wire`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkBreaking, contractFromModel, RULES, type RuleId } from '../../src/breaking/index.js';
import { checkIdl, type IdlFile, syntheticName, syntheticSpan } from '../../src/idl/index.js';
import { randomIdlFile } from '../idl/random-idl.js';
import { MUTATORS } from './mutators.js';

type Gen = fc.GeneratorValue;

function contractOf(file: IdlFile) {
  const { model, diagnostics } = checkIdl(file);
  expect(diagnostics).toEqual([]);
  return contractFromModel(model!);
}

function changes(before: IdlFile, after: IdlFile) {
  return checkBreaking({ before: contractOf(before), after: contractOf(after), sources: new Map() }).changes;
}

function shuffle<T>(g: Gen, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = g(fc.nat, { max: i });
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** New, changed or dropped doc comments on a node. */
function recomment(g: Gen, node: { comment?: string }): void {
  const choice = g(fc.integer, { min: 0, max: 2 });
  if (choice === 0) delete node.comment;
  else if (choice === 1) node.comment = `changed ${g(fc.nat)}`;
}

/** The file with declarations, methods, fields, enum values and errors in another order and other comments; parameters keep theirs. */
function reorderedAndRecommented(g: Gen, file: IdlFile): IdlFile {
  const copy = structuredClone(file);
  recomment(g, copy.namespace!);
  shuffle(g, copy.declarations);
  for (const declaration of copy.declarations) {
    recomment(g, declaration);
    if (declaration.kind === 'interface') for (const method of shuffle(g, declaration.methods)) recomment(g, method);
    if (declaration.kind === 'struct') for (const field of shuffle(g, declaration.fields)) recomment(g, field);
    if (declaration.kind === 'enum') for (const value of shuffle(g, declaration.values)) recomment(g, value);
    if (declaration.kind === 'errors') for (const error of shuffle(g, declaration.errors)) recomment(g, error);
  }
  return copy;
}

describe('breaking-change check (properties)', () => {
  test('reordering declarations, methods, fields, values and errors, and changing comments, reports nothing', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const file = randomIdlFile(g);
        expect(changes(file, reorderedAndRecommented(g, file))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  const ids = RULES.map((rule) => rule.id);
  test.each(ids)('the %s mutator reports exactly that rule', (id: RuleId) => {
    let applied = 0;
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const mutation = MUTATORS[id](g, randomIdlFile(g));
        if (!mutation) return;
        applied++;
        const found = changes(mutation.before, mutation.after);
        expect(found.length).toBeGreaterThan(0);
        expect([...new Set(found.map((c) => c.rule))]).toEqual([id]);
      }),
      { numRuns: 40 },
    );
    // The property must not pass by never applying: random files have what each mutator needs often enough.
    expect(applied).toBeGreaterThan(5);
  });

  test('adding only an interface, a method or an optional field never breaks at wire', () => {
    const span = () => syntheticSpan('random.idl');
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const before = randomIdlFile(g);
        const after = structuredClone(before);
        for (const [index, declaration] of after.declarations.entries()) {
          if (declaration.kind === 'interface' && g(fc.boolean)) {
            declaration.methods.push({
              name: syntheticName('addedMethodXYZ', 'random.idl'),
              parameters: [
                { name: syntheticName('p', 'random.idl'), type: { kind: 'builtIn', name: 'string', span: span() }, span: span() },
              ],
              returnType: { kind: 'builtIn', name: 'int', span: span() },
              returnOptional: g(fc.boolean),
              raises: [],
              span: span(),
            });
          }
          if (declaration.kind === 'struct' && g(fc.boolean)) {
            declaration.fields.push({
              name: syntheticName(`addedFieldXYZ${index}`, 'random.idl'),
              type: { kind: 'builtIn', name: 'int', span: span() },
              optional: true,
              span: span(),
            });
          }
        }
        if (g(fc.boolean))
          after.declarations.push({ kind: 'interface', name: syntheticName('AddedInterfaceXYZ', 'random.idl'), methods: [], span: span() });
        const report = checkBreaking({ before: contractOf(before), after: contractOf(after), sources: new Map(), level: 'wire' });
        expect(report.failures).toEqual([]);
        expect(report.changes.every((c) => ['interface-added', 'method-added', 'field-added-optional'].includes(c.rule))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
