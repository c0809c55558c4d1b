/**
 * Field defaults on the server (docs/runtime.md, "Defaults"): a struct a request carries, at any
 * depth (inside arrays and maps too), gets the default of each field it leaves out or sends as
 * `null`, before the handler. Fillers are built once per method from the IDL JSON; a method whose
 * parameters reach no field with a default has none and pays nothing. Results are never filled.
 */
import type { IdlJson, IdlJsonStruct, IdlJsonType } from './idl-json.js';
import { freshDefault } from './optional-parameters.js';

/** Fills the defaults of one value in place (a value of the wrong shape is left as it is). */
type Filler = (value: unknown) => void;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fillers of each parameter of every method that needs some, by `"<Interface>.<method>"`. */
export function fieldDefaultFillers(idl: IdlJson): Map<string, (Filler | undefined)[]> {
  const structs = new Map((idl.structs ?? []).map((s) => [s.name, s] as const));
  const fillers = new Map<string, Filler | null>(); // by struct name; null: nothing to fill
  const building = new Set<string>();

  /** A struct's fields, inherited ones first. */
  const allFields = (struct: IdlJsonStruct) => {
    const chain: IdlJsonStruct[] = [];
    for (let s: IdlJsonStruct | undefined = struct; s && !chain.includes(s); s = s.extends ? structs.get(s.extends) : undefined)
      chain.unshift(s);
    return chain.flatMap((s) => s.fields ?? []);
  };

  const structFiller = (name: string): Filler | undefined => {
    const known = fillers.get(name);
    if (known !== undefined) return known ?? undefined;
    const struct = structs.get(name);
    if (struct === undefined) return undefined;
    if (building.has(name)) return (value) => fillers.get(name)?.(value); // recursive: resolved later
    building.add(name);
    const steps: Filler[] = [];
    for (const field of allFields(struct)) {
      const key = field.name;
      const inner = typeFiller(field.type);
      if (Object.hasOwn(field, 'default')) {
        const fallback = field.default;
        steps.push((object) => {
          const record = object as Record<string, unknown>;
          if (record[key] === undefined || record[key] === null) record[key] = freshDefault(fallback);
        });
      }
      if (inner !== undefined) steps.push((object) => inner((object as Record<string, unknown>)[key]));
    }
    building.delete(name);
    const filler: Filler | null =
      steps.length === 0
        ? null
        : (value) => {
            if (isPlainObject(value)) for (const step of steps) step(value);
          };
    fillers.set(name, filler);
    return filler ?? undefined;
  };

  const typeFiller = (type: IdlJsonType): Filler | undefined => {
    if ('array' in type) {
      const item = typeFiller(type.array);
      return (
        item &&
        ((value) => {
          if (Array.isArray(value)) for (const element of value) item(element);
        })
      );
    }
    if ('mapValue' in type) {
      const entry = typeFiller(type.mapValue);
      return (
        entry &&
        ((value) => {
          if (isPlainObject(value)) for (const element of Object.values(value)) entry(element);
        })
      );
    }
    if ('userDefined' in type) return structFiller(type.userDefined);
    return undefined;
  };

  const byMethod = new Map<string, (Filler | undefined)[]>();
  for (const iface of idl.interfaces ?? []) {
    for (const method of iface.methods ?? []) {
      const params = (method.parameters ?? []).map((p) => typeFiller(p.type));
      if (params.some((filler) => filler !== undefined)) byMethod.set(`${iface.name}.${method.name}`, params);
    }
  }
  return byMethod;
}

/** Fills the field defaults of the arguments in place. */
export function fillFieldDefaults(args: readonly unknown[], fillers: readonly (Filler | undefined)[]): void {
  for (let index = 0; index < fillers.length; index++) fillers[index]?.(args[index]);
}
