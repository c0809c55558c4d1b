/**
 * The runtime's schemas of an IDL (runtime/schema.ts `idlSchemas`), with each named schema kept from
 * the previous generation of the same file when its declaration is as it was: the same object, not
 * an equal one. What is generated from one named schema alone (its compiled check, its problem
 * walker) can then be recognised by the object and reused when a dev server or watch build
 * generates the file again after an edit elsewhere (compiled-check-cache.ts, emit-problem-walkers.ts).
 *
 * A named schema is a function of its declaration's JSON form alone (a struct's also of whether the
 * struct it extends exists), so the declaration's object (interned-idl-json.ts) is the key. Nothing
 * here changes what is generated.
 */
import type { TSchema } from '@sinclair/typebox';
import type { IdlJson, IdlJsonInterface } from '../../runtime/idl-json.js';
import {
  assertExtendsChainsEnd,
  enumSchema,
  type IdlSchemas,
  idlSchemas,
  interfaceMethodSchemas,
  type MethodSchemas,
  methodSchemas,
  structSchema,
  unionSchema,
} from '../../runtime/schema.js';

/**
 * The named schema made from each declaration object of the IDL JSON, with whether the struct it
 * extends was known then. The objects are those of interned-idl-json.ts: an unchanged declaration is
 * the object of the earlier generation, so its schema is found here.
 */
let bySource = new WeakMap<object, { parentKnown: boolean; schema: TSchema }>();

/**
 * `idlSchemas(idl)`; with `remember` (the IDL JSON's declarations interned, see
 * interned-idl-json.ts), every named schema made from a declaration object before is that schema.
 */
export function internedSchemas(idl: IdlJson, remember: boolean): IdlSchemas {
  if (!remember) return idlSchemas(idl);
  const intern = (source: object, parentKnown: boolean, build: () => TSchema): TSchema => {
    const known = bySource.get(source);
    if (known !== undefined && known.parentKnown === parentKnown) return known.schema;
    const schema = build();
    bySource.set(source, { parentKnown, schema });
    return schema;
  };
  const structsByName = new Map((idl.structs ?? []).map((struct) => [struct.name, struct] as const));
  assertExtendsChainsEnd(structsByName);
  const references: TSchema[] = [
    ...(idl.structs ?? []).map((struct) => {
      const parentKnown = struct.extends !== undefined && structsByName.has(struct.extends);
      return intern(struct, parentKnown, () => structSchema(struct, structsByName));
    }),
    ...(idl.enums ?? []).map((e) => intern(e, false, () => enumSchema(e))),
    ...(idl.unions ?? []).map((union) => intern(union, false, () => unionSchema(union))),
  ];
  return { references, methods: methodSchemas(idl, interfaceSchemas) };
}

/** The method schemas made from each interface object of the IDL JSON (interned like the declarations). */
let byInterface = new WeakMap<IdlJsonInterface, Record<string, MethodSchemas>>();

function interfaceSchemas(iface: IdlJsonInterface): Record<string, MethodSchemas> {
  let schemas = byInterface.get(iface);
  if (schemas === undefined) byInterface.set(iface, (schemas = interfaceMethodSchemas(iface)));
  return schemas;
}

/** Forgets every schema made (tests that generate from scratch). */
export function clearInternedSchemas(): void {
  bySource = new WeakMap();
  byInterface = new WeakMap();
}
