/**
 * The conversions between the wire forms of `timestamp` and `bytes` (strings) and the values
 * handlers and callers see (`Date`, `Uint8Array`): docs/runtime.md, "Timestamps and bytes".
 *
 * A method whose parameters or result reach neither type has no conversion at all, so a service
 * without them pays nothing. Shapes name only what converts: a struct's shape lists the fields
 * (its inherited ones too) that reach a `timestamp` or `bytes`, nothing else.
 */
import type { IdlJson, IdlJsonMethod, IdlJsonStruct, IdlJsonType, IdlJsonUnion } from './idl-json.js';
import { bytesFromWire, bytesToWire, timestampFromWire } from './wire-values.js';

/**
 * What converts in a value: `t` a timestamp, `b` bytes, `[a, S]` an array of S, `[m, S]` a map of S,
 * a struct or union name (a union's entry lists the converting fields of all its variants).
 */
export type WireShape = 't' | 'b' | ['a', WireShape] | ['m', WireShape] | ['s', string];

/** The converting fields of each struct a conversion reaches, by struct name. */
export type WireStructs = Record<string, [string, WireShape][]>;

/** The conversion of one method: per parameter (0 where none) and of the result (0 where none). */
export interface WireConversion {
  p: (WireShape | 0)[];
  r: WireShape | 0;
  s: WireStructs;
}

/** The shapes of an IDL's structs and types, computed once per IDL. */
class ShapeFinder {
  private readonly structs: Map<string, IdlJsonStruct>;
  private readonly unions: Map<string, IdlJsonUnion>;
  /** The structs some of whose fields (their inherited ones too) reach a timestamp or bytes. */
  private readonly converting = new Set<string>();

  constructor(idl: IdlJson) {
    this.structs = new Map((idl.structs ?? []).map((struct) => [struct.name, struct] as const));
    this.unions = new Map((idl.unions ?? []).map((union) => [union.name, union] as const));
    // Which structs convert, found backwards from the fields that hold a timestamp or bytes, each
    // struct reached once: recursive structs and long `extends` chains take linear time.
    const usedBy = new Map<string, string[]>();
    const pending: string[] = [];
    const use = (name: string, by: string) => usedBy.set(name, [...(usedBy.get(name) ?? []), by]);
    for (const struct of this.structs.values()) {
      if (struct.extends !== undefined) use(struct.extends, struct.name);
      for (const field of struct.fields ?? []) {
        const leaf = leafOf(field.type);
        if ('userDefined' in leaf) use(leaf.userDefined, struct.name);
        else if (leaf.builtIn === 'timestamp' || leaf.builtIn === 'bytes') pending.push(struct.name);
      }
    }
    // A union converts when one of its variants does.
    for (const union of this.unions.values()) for (const variant of union.variants ?? []) use(variant.type, union.name);
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (this.converting.has(name)) continue;
      this.converting.add(name);
      pending.push(...(usedBy.get(name) ?? []));
    }
  }

  /** The shape of `type`, or undefined when nothing in it converts. Adds the structs it reaches to `reached`. */
  shape(type: IdlJsonType, reached: WireStructs): WireShape | undefined {
    if ('builtIn' in type) return type.builtIn === 'timestamp' ? 't' : type.builtIn === 'bytes' ? 'b' : undefined;
    if ('array' in type) {
      const element = this.shape(type.array, reached);
      return element === undefined ? undefined : ['a', element];
    }
    if ('mapValue' in type) {
      const value = this.shape(type.mapValue, reached);
      return value === undefined ? undefined : ['m', value];
    }
    const name = type.userDefined;
    if (!this.converting.has(name)) return undefined;
    const union = this.unions.get(name);
    if (union !== undefined) {
      if (!Object.hasOwn(reached, name)) this.unionFields(union, reached);
      return ['s', name];
    }
    if (!Object.hasOwn(reached, name)) {
      // Listed before its fields are walked, so a recursive struct ends the walk.
      const fields: [string, WireShape][] = [];
      reached[name] = fields;
      for (const field of this.allFields(this.structs.get(name)!)) {
        const shape = this.shape(field.type, reached);
        if (shape !== undefined) fields.push([field.name, shape]);
      }
    }
    return ['s', name];
  }

  /**
   * Lists a union like a struct: the converting fields of all its variants, so conversions need no
   * code of their own for unions (the client's conversion code stays as small as it was). That is
   * exact only when the variants agree on the fields they share; when a field converts in one variant
   * and has another type in another, the union is refused with a message saying so.
   */
  private unionFields(union: IdlJsonUnion, reached: WireStructs): void {
    const fields: [string, WireShape][] = [];
    // Listed before the variants are walked, so a union a variant reaches again ends the walk.
    reached[union.name] = fields;
    const shapes = new Map<string, string>();
    for (const variant of union.variants ?? []) {
      const struct = this.structs.get(variant.type);
      for (const field of struct ? this.allFields(struct) : []) {
        const shape = this.shape(field.type, reached);
        const text = JSON.stringify(shape ?? 0);
        const before = shapes.get(field.name);
        if (before !== undefined && before !== text) {
          throw new Error(
            `Union ${union.name}: field '${field.name}' has different types in its variants and one of them holds a timestamp or bytes; give the fields different names`,
          );
        }
        if (before === undefined && shape !== undefined) fields.push([field.name, shape]);
        shapes.set(field.name, text);
      }
    }
  }

  private allFields(struct: IdlJsonStruct): NonNullable<IdlJsonStruct['fields']> {
    const chain: IdlJsonStruct[] = [];
    const seen = new Set<string>();
    for (let current: IdlJsonStruct | undefined = struct; current && !seen.has(current.name); ) {
      seen.add(current.name);
      chain.unshift(current);
      current = current.extends === undefined ? undefined : this.structs.get(current.extends);
    }
    return chain.flatMap((s) => s.fields ?? []);
  }
}

/** The innermost type of arrays and maps. */
function leafOf(type: IdlJsonType): Exclude<IdlJsonType, { array: unknown } | { mapValue: unknown }> {
  let leaf = type;
  while ('array' in leaf || 'mapValue' in leaf) leaf = 'array' in leaf ? leaf.array : leaf.mapValue;
  return leaf;
}

/**
 * The conversion of every method that has one, keyed by `"<Interface>.<method>"`. Methods whose
 * parameters and result reach no `timestamp` or `bytes` are left out.
 */
export function wireConversions(idl: IdlJson): Map<string, WireConversion> {
  const finder = new ShapeFinder(idl);
  const conversions = new Map<string, WireConversion>();
  for (const iface of idl.interfaces ?? []) {
    for (const method of iface.methods ?? []) {
      const conversion = methodConversion(finder, method);
      if (conversion !== undefined) conversions.set(`${iface.name}.${method.name}`, conversion);
    }
  }
  return conversions;
}

function methodConversion(finder: ShapeFinder, method: IdlJsonMethod): WireConversion | undefined {
  const s: WireStructs = {};
  const p = (method.parameters ?? []).map((parameter) => finder.shape(parameter.type, s) ?? 0);
  const r = finder.shape(method.returnType, s) ?? 0;
  return r === 0 && p.every((shape) => shape === 0) ? undefined : { p, r, s };
}

/**
 * `value` converted along `shape`, a copy wherever something converts (the caller's, handler's or
 * parser's objects are left as they are). `toWire`: `Date`s and `Uint8Array`s become their wire
 * strings; else wire strings become `Date`s (`t`) and `Uint8Array`s (`b`). A value that is not what
 * the shape says is left as it is (the validators judge it).
 */
export function convertWire(value: unknown, shape: WireShape, structs: WireStructs, toWire: boolean): unknown {
  if (typeof shape === 'string') {
    if (toWire) return value instanceof Date ? value.toISOString() : value instanceof Uint8Array ? bytesToWire(value) : value;
    return typeof value !== 'string' ? value : shape === 't' ? timestampFromWire(value) : bytesFromWire(value);
  }
  if (typeof value !== 'object' || value === null) return value;
  const [kind, inner] = shape;
  if (kind === 'a') return Array.isArray(value) ? value.map((item) => convertWire(item, inner, structs, toWire)) : value;
  if (Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (kind === 'm') for (const key of Object.keys(copy)) copy[key] = convertWire(copy[key], inner, structs, toWire);
  else
    for (const [name, field] of structs[inner]) {
      if (Object.hasOwn(copy, name)) copy[name] = convertWire(copy[name], field, structs, toWire);
    }
  return copy;
}
