/**
 * The IDL JSON's named types by name, with each struct's fields inherited ones first: what request
 * generation and shrinking look types up in.
 */
import type { IdlJson, IdlJsonEnum, IdlJsonField, IdlJsonStruct, IdlJsonUnion } from '../../runtime/idl-json.js';

export interface IdlIndex {
  idl: IdlJson;
  structs: ReadonlyMap<string, IdlJsonStruct>;
  enums: ReadonlyMap<string, IdlJsonEnum>;
  unions: ReadonlyMap<string, IdlJsonUnion>;
  /** Every field of a struct, an `extends` parent's first (as the wire carries them). */
  fieldsOf(structName: string): readonly IdlJsonField[];
}

/** Indexes the named types of an IDL JSON. */
export function indexIdl(idl: IdlJson): IdlIndex {
  const structs = new Map((idl.structs ?? []).map((s) => [s.name, s] as const));
  const enums = new Map((idl.enums ?? []).map((e) => [e.name, e] as const));
  const unions = new Map((idl.unions ?? []).map((u) => [u.name, u] as const));
  const fields = new Map<string, readonly IdlJsonField[]>();
  const fieldsOf = (name: string): readonly IdlJsonField[] => {
    const known = fields.get(name);
    if (known) return known;
    const chain: IdlJsonStruct[] = [];
    // The checker refuses extends cycles; the set only keeps a hand-written JSON from looping.
    const seen = new Set<string>();
    for (let s = structs.get(name); s && !seen.has(s.name); s = s.extends ? structs.get(s.extends) : undefined) {
      seen.add(s.name);
      chain.unshift(s);
    }
    const all = chain.flatMap((s) => s.fields ?? []);
    fields.set(name, all);
    return all;
  };
  return { idl, structs, enums, unions, fieldsOf };
}
