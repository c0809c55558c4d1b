/**
 * The IDL JSON of a file generated again and again (a dev server, a watch build), with each
 * declaration (struct, enum, union, interface) that is as in the file's previous generation kept as
 * that generation's object. What is made from one declaration alone (its schema, its part of the
 * IDL JSON text, its part of a phase key) is then found again by the object instead of being made
 * again (interned-schemas.ts, source-text.ts `jsonParseExpression`, phase-keys.ts).
 *
 * The JSON form is never changed after `toIdlJson` makes it, so sharing objects between generations
 * is safe; two declarations are the same exactly when their JSON texts are.
 */
import type { IdlJson } from '../../runtime/idl-json.js';

/** Files whose declarations are kept: the ones generated most recently. */
const MAX_SLOTS = 64;

/** Per file (slot), the declarations of its latest generation by their JSON text. */
const slots = new Map<string, Map<string, object>>();

/** The JSON text of declarations seen so far (each computed once per object). */
const texts = new WeakMap<object, string>();

/** The IDL JSON text of the interned declarations, as the server's module writes it (source-text.ts `KeptJsonTexts`). */
let jsonTexts = new WeakMap<object, string>();

/** Where `jsonParseExpression` keeps the text of the interned declarations. */
export function keptJsonTexts(): WeakMap<object, string> {
  return jsonTexts;
}

/** `JSON.stringify(declaration)`, computed once per object. */
export function declarationText(declaration: object): string {
  let text = texts.get(declaration);
  if (text === undefined) texts.set(declaration, (text = JSON.stringify(declaration)));
  return text;
}

/**
 * `idl`, with every declaration that is as in `slot`'s previous generation replaced by that
 * generation's object (equal JSON, so the same JSON text). Without a slot, `idl` itself.
 */
export function internedIdlJson(idl: IdlJson, slot: string | undefined): IdlJson {
  if (slot === undefined) return idl;
  const previous = slots.get(slot) ?? new Map<string, object>();
  const kept = new Map<string, object>();
  const intern = <T extends object>(kind: string, declaration: T): T => {
    const key = `${kind} ${declarationText(declaration)}`;
    const earlier = (previous.get(key) as T | undefined) ?? declaration;
    kept.set(key, earlier);
    return earlier;
  };
  // Spread, then replaced in place: the keys keep their order (the JSON text depends on it).
  const interned: IdlJson = { ...idl };
  if (idl.interfaces) interned.interfaces = idl.interfaces.map((iface) => intern('interface', iface));
  if (idl.structs) interned.structs = idl.structs.map((struct) => intern('struct', struct));
  if (idl.enums) interned.enums = idl.enums.map((e) => intern('enum', e));
  if (idl.unions) interned.unions = idl.unions.map((union) => intern('union', union));
  slots.delete(slot);
  slots.set(slot, kept);
  if (slots.size > MAX_SLOTS) slots.delete(slots.keys().next().value as string);
  return interned;
}

/** Forgets every slot's declarations (tests that generate from scratch). */
export function clearInternedIdlJson(): void {
  slots.clear();
  jsonTexts = new WeakMap();
}
