import { describe, expect, it } from 'vitest';
import type { StructDecl } from './ast.js';
import { walkExtendsForest } from './extends-forest.js';

const span = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 }, fileName: 't.idl' };
const struct = (name: string, ...fields: string[]): StructDecl =>
  ({ kind: 'struct', name: { text: name, span }, fields: fields.map((f) => ({ name: { text: f, span } })), span }) as unknown as StructDecl;

/** What each struct saw inherited, as `name: field=owner ...`, in visiting order. */
function walk(structs: StructDecl[], parents: [StructDecl, StructDecl][]): string[] {
  const seen: string[] = [];
  walkExtendsForest<string>(structs, new Map(parents), (s, inherited) => {
    seen.push(`${s.name.text}: ${[...inherited].map(([k, v]) => `${k}=${v}`).join(' ')}`.trimEnd());
    return s.fields.map((f) => [f.name.text, s.name.text] as const);
  });
  return seen;
}

describe('walkExtendsForest', () => {
  it('visits parents before children; a child replaces an inherited entry for its descendants only', () => {
    const [c, a, b, d] = [struct('C', 'x'), struct('A', 'x', 'y'), struct('B', 'x'), struct('D')];
    // C extends B extends A; D extends A.
    expect(
      walk(
        [c, a, b, d],
        [
          [c, b],
          [b, a],
          [d, a],
        ],
      ),
    ).toEqual(['A:', 'B: x=A y=A', 'C: x=B y=A', 'D: x=A y=A']);
  });

  it('visits each struct of an extends cycle once, starting from the first, which inherits nothing', () => {
    const [a, b, e] = [struct('A', 'a'), struct('B', 'b'), struct('E', 'e')];
    expect(
      walk(
        [a, b, e],
        [
          [a, b],
          [b, a],
          [e, b],
        ],
      ),
    ).toEqual(['A:', 'B: a=A', 'E: a=A b=B']);
  });

  it('walks a chain of 100,000 structs without running out of stack', () => {
    const chain = Array.from({ length: 100_000 }, (_, i) => struct(`S${i}`, `f${i % 3}`));
    const seen: number[] = [];
    walkExtendsForest<number>(chain, new Map(chain.slice(1).map((s, i) => [s, chain[i]])), (_s, inherited) => {
      seen.push(inherited.size);
      return [[`f${seen.length % 3}`, seen.length]];
    });
    expect(seen.length).toBe(100_000);
    expect(seen.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(seen[99_999]).toBe(3);
  });
});
