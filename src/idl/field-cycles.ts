/**
 * Structs that can never be built: their required, directly struct-typed fields (own or inherited)
 * lead back to themselves. Found in time linear in the number of structs and fields, however long
 * the `extends` chains and field chains are.
 *
 * The graph has two nodes per struct S: "a value of S" and "the fields S declares, own and
 * inherited". A value of S needs S's fields; S's fields include its parent's fields and need a value
 * of each required struct-typed own field's type. Inherited fields are thus reached through the
 * parent's node instead of being copied into every descendant, which keeps the graph linear.
 */
import type { EnumDecl, Field, StructDecl } from './ast.js';

export interface CycleStep {
  /** The struct whose (possibly inherited) field is followed. */
  from: StructDecl;
  /** The struct that declares the field (the `from` struct or an ancestor). */
  owner: StructDecl;
  field: Field;
}

/**
 * One cycle per strongly connected component of "struct -> struct of a required field whose type is
 * directly a struct", starting at its first struct in source order: a shortest one through it.
 *
 * @param parentOf each struct's resolved parent; structs of an `extends` cycle must be left out
 */
export function requiredFieldCycles(
  structs: readonly StructDecl[],
  types: ReadonlyMap<string, EnumDecl | StructDecl>,
  parentOf: ReadonlyMap<StructDecl, StructDecl>,
): CycleStep[][] {
  const n = structs.length;
  const indexOf = new Map<StructDecl, number>();
  structs.forEach((struct, i) => {
    indexOf.set(struct, i);
  });
  // Node i: a value of structs[i]; node n + i: the fields of structs[i].
  const parentIndex = new Int32Array(n).fill(-1);
  const fieldEdges: { field: Field; target: number }[][] = [];
  for (let i = 0; i < n; i++) {
    const parent = parentOf.get(structs[i]);
    if (parent) parentIndex[i] = indexOf.get(parent) ?? -1;
    const edges: { field: Field; target: number }[] = [];
    for (const field of structs[i].fields) {
      if (field.optional || field.type.kind !== 'named') continue;
      const type = types.get(field.type.name);
      if (type?.kind === 'struct') edges.push({ field, target: indexOf.get(type)! });
    }
    fieldEdges.push(edges);
  }
  const successors = (node: number): number[] => {
    if (node < n) return [n + node];
    const i = node - n;
    const next = fieldEdges[i].map((edge) => edge.target);
    if (parentIndex[i] !== -1) next.push(n + parentIndex[i]);
    return next;
  };
  const component = stronglyConnectedComponents(2 * n, successors);
  const size = new Int32Array(2 * n);
  for (const c of component) size[c]++;

  const cycles: CycleStep[][] = [];
  const done = new Set<number>();
  // Nodes already reached by a search; each component is searched once, so one array serves all.
  const reached = new Uint8Array(2 * n);
  for (let start = 0; start < n; start++) {
    const c = component[start];
    if (size[c] < 2 || done.has(c)) continue;
    done.add(c);
    const cycle = shortestCycleThrough(start);
    if (cycle) cycles.push(cycle);
  }
  return cycles;

  /** Breadth-first search, counting field steps, from a value of structs[start] back to it. */
  function shortestCycleThrough(start: number): CycleStep[] | undefined {
    const c = component[start];
    const cameFrom = new Map<number, CycleStep>();
    const queue = [start];
    reached[start] = 1;
    for (let head = 0; head < queue.length; head++) {
      const from = structs[queue[head]];
      // Own fields first, then each ancestor's; an ancestor reached before was expanded then.
      for (let owner = queue[head]; owner !== -1 && component[n + owner] === c && !reached[n + owner]; owner = parentIndex[owner]) {
        reached[n + owner] = 1;
        for (const { field, target } of fieldEdges[owner]) {
          if (component[target] !== c) continue;
          const step = { from, owner: structs[owner], field };
          if (target === start) return pathEndingWith(step, start, cameFrom);
          if (reached[target]) continue;
          reached[target] = 1;
          cameFrom.set(target, step);
          queue.push(target);
        }
      }
    }
    return undefined;
  }

  function pathEndingWith(closing: CycleStep, start: number, cameFrom: ReadonlyMap<number, CycleStep>): CycleStep[] {
    const reversed = [closing];
    for (let at = indexOf.get(closing.from)!; at !== start; ) {
      const step = cameFrom.get(at)!;
      reversed.push(step);
      at = indexOf.get(step.from)!;
    }
    return reversed.reverse();
  }
}

/**
 * Tarjan's algorithm without recursion (a chain of 100,000 structs must not overflow the stack):
 * the component number of each node `0 .. count - 1`.
 */
function stronglyConnectedComponents(count: number, successors: (node: number) => number[]): Int32Array {
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const component = new Int32Array(count).fill(-1);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const calls: { node: number; next: number[]; position: number }[] = [];
  let counter = 0;
  let components = 0;
  const visit = (node: number) => {
    index[node] = low[node] = counter++;
    stack.push(node);
    onStack[node] = 1;
    calls.push({ node, next: successors(node), position: 0 });
  };
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    visit(root);
    while (calls.length > 0) {
      const call = calls[calls.length - 1];
      if (call.position < call.next.length) {
        const next = call.next[call.position++];
        if (index[next] === -1) visit(next);
        else if (onStack[next]) low[call.node] = Math.min(low[call.node], index[next]);
        continue;
      }
      calls.pop();
      if (calls.length > 0) {
        const caller = calls[calls.length - 1].node;
        low[caller] = Math.min(low[caller], low[call.node]);
      }
      if (low[call.node] === index[call.node]) {
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          component[member] = components;
        } while (member !== call.node);
        components++;
      }
    }
  }
  return component;
}
