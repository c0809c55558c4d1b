/**
 * `extends`: the parent must be a declared struct (`unknown-parent`, `extends-non-struct`) and no
 * struct may extend itself, directly or through others (`extends-cycle`). Fills the context's
 * `parentOf` with the resolved parents, without the structs of a cycle, so that later passes walk a
 * forest. Linear however long the chains are.
 */
import type { StructDecl } from '../ast.js';
import { errorAt } from '../diagnostic.js';
import type { CheckContext } from './context.js';
import { pathText } from './cycle-path.js';

export function checkExtends({ symbols, structs, types, parentOf, suggestStruct, report }: CheckContext): void {
  for (const reference of symbols.references) {
    if (reference.kind !== 'extends' || reference.from.kind !== 'struct') continue;
    const struct = reference.from.node;
    // Interfaces share the name space but are not types: extending one is extending nothing declared.
    const parent = reference.symbol?.kind === 'enum' || reference.symbol?.kind === 'struct' ? reference.symbol.node : undefined;
    if (!parent) {
      report(
        errorAt(
          'unknown-parent',
          `struct '${struct.name.text}' extends '${reference.name}', which is not declared${suggestStruct(reference.name)}`,
          reference.span,
        ),
      );
    } else if (parent.kind !== 'struct') {
      report(
        errorAt(
          'extends-non-struct',
          `struct '${struct.name.text}' can only extend a struct, and '${parent.name.text}' is an enum`,
          reference.span,
        ),
      );
    } else if (types.get(struct.name.text) === struct) {
      parentOf.set(struct, parent);
    }
  }

  const inExtendsCycle = new Set<StructDecl>();
  for (const cycle of extendsCycles(structs, parentOf)) {
    for (const member of cycle) inExtendsCycle.add(member);
    const [first] = cycle;
    const path = pathText(
      cycle.map((member) => member.name.text),
      first.name.text,
    );
    report(errorAt('extends-cycle', `struct '${first.name.text}' extends itself: ${path}`, first.extends!.span));
  }
  // From here on the extends graph is a forest: a struct of a cycle counts as a root.
  for (const member of inExtendsCycle) parentOf.delete(member);
}

/**
 * The `extends` cycles, each as its structs in `extends` order starting with the first one in
 * source order. Each struct is walked once: linear however long the chains are.
 */
function extendsCycles(structs: readonly StructDecl[], parentOf: ReadonlyMap<StructDecl, StructDecl>): StructDecl[][] {
  const order = new Map<StructDecl, number>();
  structs.forEach((struct, i) => {
    order.set(struct, i);
  });
  const ON_WALK = 1;
  const DONE = 2;
  const state = new Map<StructDecl, number>();
  const cycles: { first: number; members: StructDecl[] }[] = [];
  for (const struct of structs) {
    if (state.has(struct)) continue;
    const walk: StructDecl[] = [];
    let current: StructDecl | undefined = struct;
    for (; current && !state.has(current); current = parentOf.get(current)) {
      state.set(current, ON_WALK);
      walk.push(current);
    }
    if (current && state.get(current) === ON_WALK) {
      const members = walk.slice(walk.indexOf(current));
      let first = 0;
      members.forEach((member, i) => {
        if (order.get(member)! < order.get(members[first])!) first = i;
      });
      cycles.push({ first: order.get(members[first])!, members: [...members.slice(first), ...members.slice(0, first)] });
    }
    for (const member of walk) state.set(member, DONE);
  }
  return cycles.sort((a, b) => a.first - b.first).map((cycle) => cycle.members);
}
