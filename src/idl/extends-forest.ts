/**
 * The one walk down `extends` chains that passes inherited fields from parents to children, shared
 * by the checker (`duplicate-field`) and the OpenAPI converter (settling redefined fields). It keeps
 * its own stack and one map of what is inherited, so chains thousands long cost linear time and no
 * call stack.
 */
import type { StructDecl } from './ast.js';

/**
 * Calls `visit` once for every struct, parents before children, with what its ancestors pass down,
 * by field name. `visit` returns what the struct passes down to its descendants (an entry replaces
 * an ancestor's of the same name); it is taken back when the walk leaves the struct, and only read
 * when the struct has children.
 *
 * Walks start at the structs without a parent, in the order of `structs` (children in that order
 * too). A struct no such walk reaches (one on a cycle of `parentOf`, or below one) then starts a walk
 * of its own, inheriting nothing.
 */
export function walkExtendsForest<T>(
  structs: Iterable<StructDecl>,
  parentOf: ReadonlyMap<StructDecl, StructDecl>,
  visit: (struct: StructDecl, inherited: ReadonlyMap<string, T>) => Iterable<readonly [string, T]>,
): void {
  const all = [...structs];
  const children = new Map<StructDecl, StructDecl[]>();
  for (const struct of all) {
    const parent = parentOf.get(struct);
    if (!parent) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(struct);
    else children.set(parent, [struct]);
  }
  const inherited = new Map<string, T>();
  const visited = new Set<StructDecl>();
  interface Frame {
    struct: StructDecl;
    /** Entries of `inherited` this struct replaced (undefined: added), to restore on the way up. */
    undo: [string, T | undefined][];
    nextChild: number;
  }
  const enter = (struct: StructDecl): Frame => {
    visited.add(struct);
    const passedDown = visit(struct, inherited);
    const undo: [string, T | undefined][] = [];
    if (children.has(struct)) {
      for (const [name, entry] of passedDown) {
        undo.push([name, inherited.get(name)]);
        inherited.set(name, entry);
      }
    }
    return { struct, undo, nextChild: 0 };
  };
  const roots = all.filter((struct) => !parentOf.has(struct));
  for (const start of [...roots, ...all]) {
    if (visited.has(start)) continue;
    const stack: Frame[] = [enter(start)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const next = children.get(frame.struct)?.[frame.nextChild++];
      if (next !== undefined) {
        if (!visited.has(next)) stack.push(enter(next));
        continue;
      }
      for (let i = frame.undo.length - 1; i >= 0; i--) {
        const [name, before] = frame.undo[i];
        if (before === undefined) inherited.delete(name);
        else inherited.set(name, before);
      }
      stack.pop();
    }
  }
}
