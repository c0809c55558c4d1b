/**
 * The passes over the converted structs once every schema is converted: settling inherited fields
 * that a child redefines, and breaking cycles of required struct-typed fields. Both walk with their
 * own stacks and look at each inherited field once per path, so inheritance chains and field chains
 * thousands long cost linear time and no call stack.
 */
import type { Field, StructDecl } from '../idl/ast.js';
import { walkExtendsForest } from '../idl/extends-forest.js';
import { printType } from '../idl/format.js';

/** Reports a warning at a JSON pointer. */
type Warn = (pointer: string, message: string) => void;

/**
 * The IDL cannot redefine an inherited field; allOf can (usually to narrow it). A child property
 * that repeats an inherited field with the same type and no stricter `required` is dropped. One
 * that changes it makes the child copy its ancestors' fields instead of extending (allOf is an
 * intersection: the child's type, required when either side requires it), with a warning.
 *
 * Ancestors are settled before their children. The walk goes down each inheritance tree keeping
 * one map of the fields the current struct inherits (added on the way down, restored on the way
 * up); the warnings are then reported in the order of `structs`, ancestors first.
 */
export function settleInheritance(structs: ReadonlyMap<string, StructDecl>, fieldPointers: WeakMap<Field, string>, warn: Warn): void {
  const parentOf = new Map<StructDecl, StructDecl>();
  for (const struct of structs.values()) {
    const parent = struct.extends && structs.get(struct.extends.text);
    if (parent) parentOf.set(struct, parent);
  }
  const warnings = new Map<StructDecl, [string, string][]>();
  // A cycle of `extends` (which the converter never makes) is walked from one of its structs, which
  // then inherits nothing and so settles nothing.
  walkExtendsForest<Field>(structs.values(), parentOf, (struct, inherited) => {
    const parent = parentOf.get(struct);
    if (parent && inherited.size > 0) {
      const found = settleOne(struct, parent, inherited, fieldPointers);
      if (found.length > 0) warnings.set(struct, found);
    }
    return struct.fields.map((field) => [field.name.text, field] as const);
  });
  const reported = new Set<StructDecl>();
  for (const struct of structs.values()) {
    const chain: StructDecl[] = [];
    for (let at: StructDecl | undefined = struct; at && !reported.has(at); at = parentOf.get(at)) {
      reported.add(at);
      chain.push(at);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      for (const [pointer, message] of warnings.get(chain[i]) ?? []) warn(pointer, message);
    }
  }
}

/** Settles one struct against the fields it inherits; returns its warnings. */
function settleOne(
  struct: StructDecl,
  parent: StructDecl,
  inherited: ReadonlyMap<string, Field>,
  fieldPointers: WeakMap<Field, string>,
): [string, string][] {
  const warnings: [string, string][] = [];
  const overrides = new Map<string, Field>();
  struct.fields = struct.fields.filter((field) => {
    const base = inherited.get(field.name.text);
    if (!base) return true;
    if (printType(base.type) === printType(field.type) && (field.optional || !base.optional)) return false;
    overrides.set(field.name.text, field);
    warnings.push([
      fieldPointers.get(field) ?? '',
      `property ${field.name.text} redefines the field inherited from ${parent.name.text}; struct ${struct.name.text} copies its parents' fields instead of extending ${parent.name.text}`,
    ]);
    return false;
  });
  if (overrides.size === 0) return warnings;
  const copied = [...inherited.values()].map((base): Field => {
    const override = overrides.get(base.name.text);
    const field = override ? { ...override, optional: override.optional && base.optional } : { ...base };
    fieldPointers.set(field, fieldPointers.get(override ?? base) ?? '');
    return field;
  });
  struct.fields = [...copied, ...struct.fields];
  delete struct.extends;
  return warnings;
}

/**
 * A cycle of required, directly struct-typed fields (inherited ones included) can never be
 * satisfied and the checker rejects it: a depth-first walk over those fields marks the field that
 * closes each cycle `[optional]`, with a warning naming the cycle.
 */
export function breakRequiredCycles(structs: ReadonlyMap<string, StructDecl>, fieldPointers: WeakMap<Field, string>, warn: Warn): void {
  // Only required fields of a struct type can close a cycle: each struct's own, in field order.
  const own = new Map<StructDecl, Field[]>();
  for (const struct of structs.values()) {
    const fields = struct.fields.filter((f) => !f.optional && f.type.kind === 'named' && structs.has(f.type.name));
    if (fields.length > 0) own.set(struct, fields);
  }
  const parentOf = (struct: StructDecl): StructDecl | undefined => (struct.extends ? structs.get(struct.extends.text) : undefined);
  // The nearest struct up the inheritance chain (the struct itself included) that has such fields,
  // so a long chain of structs without any is skipped in one step.
  const nearest = new Map<StructDecl, StructDecl | null>();
  const nearestWithFields = (struct: StructDecl | undefined): StructDecl | undefined => {
    const way = new Set<StructDecl>();
    let found: StructDecl | null = null;
    for (let at = struct; at !== undefined; at = parentOf(at)) {
      const known = nearest.get(at);
      if (known !== undefined) {
        found = known;
        break;
      }
      if (own.has(at)) {
        found = at;
        break;
      }
      if (way.has(at)) break;
      way.add(at);
    }
    for (const at of way) nearest.set(at, found);
    return found ?? undefined;
  };
  /** The candidate fields of `struct` with inherited ones, root of the chain first (as allFields orders them). */
  const fieldsOf = (struct: StructDecl): Field[] => {
    const chain = new Set<StructDecl>();
    for (let at = nearestWithFields(struct); at !== undefined && !chain.has(at); at = nearestWithFields(parentOf(at))) chain.add(at);
    return [...chain].reverse().flatMap((s) => own.get(s) ?? []);
  };

  const state = new Map<StructDecl, 'open' | 'done'>();
  const path: StructDecl[] = [];
  const pathIndex = new Map<StructDecl, number>();
  interface Frame {
    struct: StructDecl;
    fields: Field[];
    next: number;
  }
  const open = (struct: StructDecl): Frame => {
    state.set(struct, 'open');
    pathIndex.set(struct, path.length);
    path.push(struct);
    return { struct, fields: fieldsOf(struct), next: 0 };
  };
  for (const start of structs.values()) {
    if (state.has(start)) continue;
    const stack: Frame[] = [open(start)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next === frame.fields.length) {
        stack.pop();
        path.pop();
        pathIndex.delete(frame.struct);
        state.set(frame.struct, 'done');
        continue;
      }
      const field = frame.fields[frame.next++];
      // Another cycle may have made it optional since.
      if (field.optional || field.type.kind !== 'named') continue;
      const target = structs.get(field.type.name)!;
      const targetState = state.get(target);
      if (targetState === 'open') {
        field.optional = true;
        const cycle = [...path.slice(pathIndex.get(target)), target].map((s) => s.name.text).join(' -> ');
        warn(fieldPointers.get(field) ?? '', `circular reference (${cycle}) broken by marking field ${field.name.text} [optional]`);
      } else if (targetState === undefined) {
        stack.push(open(target));
      }
    }
  }
}
