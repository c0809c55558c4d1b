/**
 * The contract fingerprint of one interface (docs/protocol.md, "Contract header"): what generated
 * clients send in the `x-idlrpc-contract` header and servers compare with their own, so that a
 * client generated from another version of an interface is seen.
 *
 * Stricter than the family's contract checksum in the one way that matters on the wire: parameters
 * keep their order (the checksum sorts them, so it cannot see two swapped). And narrower: it covers
 * one interface, its methods, the errors they raise with their codes, and every struct and enum its
 * methods reach (through fields, arrays, maps, `extends`), not the whole program. So a change to an
 * interface a client does not use does not set its calls apart, and the same interface gets the
 * same fingerprint whether its file is compiled alone or imported by another (names are qualified
 * with their namespace either way).
 *
 * The value is `1.` and 16 hex digits: the 64-bit FNV-1a hash of the UTF-8 of the canonical text
 * below. Not a security measure (a client can send anything): a way to see version skew.
 */
import type { IdlJson, IdlJsonEnum, IdlJsonStruct, IdlJsonType } from './idl-json.js';

/** The version prefix of fingerprints made by this algorithm; others are not compared. */
export const FINGERPRINT_VERSION = '1';

/** The fingerprint of every interface of `idl`, keyed by the interface's name as the JSON has it. */
export function interfaceFingerprints(idl: IdlJson): Map<string, string> {
  const text = canonicalInterfaceTexts(idl);
  return new Map([...text].map(([name, canonical]) => [name, `${FINGERPRINT_VERSION}.${fnv1a64(canonical)}`]));
}

/**
 * The canonical text of every interface, keyed by its JSON name: `interface:<fq>`, then per method
 * (sorted by name) `method:<name>`, ` param:<name>:<type>` in declared order, ` returns:<type>`
 * (`?` appended when optional), ` raises:<fq error>:<code>` (sorted); then every struct and enum
 * reached, sorted by fq: `struct:<fq>`, ` extends:<fq>`, ` field:<name>:<type>` (`?` when optional;
 * sorted), `enum:<fq>`, ` value:<name>` (sorted). `<fq>` is `<namespace>.<Name>` for the root
 * namespace's names and the name as written for imported ones (already qualified). Lines end in `\n`.
 */
export function canonicalInterfaceTexts(idl: IdlJson): Map<string, string> {
  const root = idl.rootNamespace;
  const fq = (name: string) => (name.includes('.') ? name : `${root}.${name}`);
  const types = new Map<string, { struct?: IdlJsonStruct; enum?: IdlJsonEnum }>();
  for (const struct of idl.structs ?? []) types.set(fq(struct.name), { struct });
  for (const enumDecl of idl.enums ?? []) types.set(fq(enumDecl.name), { enum: enumDecl });
  const errorCodes = new Map((idl.errors ?? []).map((error) => [error.name, error.code]));
  const typeText = (type: IdlJsonType): string => {
    if ('builtIn' in type) return type.builtIn;
    if ('array' in type) return `[]${typeText(type.array)}`;
    if ('mapValue' in type) return `map[string]${typeText(type.mapValue)}`;
    return fq(type.userDefined);
  };
  const texts = new Map<string, string>();
  for (const iface of idl.interfaces ?? []) {
    const lines = [`interface:${fq(iface.name)}`];
    const reached = new Set<string>();
    const pending: string[] = [];
    const reach = (type: IdlJsonType) => {
      if ('array' in type) return reach(type.array);
      if ('mapValue' in type) return reach(type.mapValue);
      if ('userDefined' in type && !reached.has(fq(type.userDefined))) {
        reached.add(fq(type.userDefined));
        pending.push(fq(type.userDefined));
      }
    };
    for (const method of [...(iface.methods ?? [])].sort((a, b) => compare(a.name, b.name))) {
      lines.push(`method:${method.name}`);
      for (const p of method.parameters ?? []) {
        lines.push(` param:${p.name}:${typeText(p.type)}`);
        reach(p.type);
      }
      lines.push(` returns:${typeText(method.returnType)}${method.returnOptional ? '?' : ''}`);
      reach(method.returnType);
      for (const raised of (method.raises ?? []).map(fq).sort(compare)) lines.push(` raises:${raised}:${errorCodes.get(raised) ?? ''}`);
    }
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      const struct = types.get(name)?.struct;
      if (struct?.extends !== undefined) reach({ userDefined: struct.extends });
      for (const field of struct?.fields ?? []) reach(field.type);
    }
    for (const name of [...reached].sort(compare)) {
      const { struct, enum: enumDecl } = types.get(name) ?? {};
      if (struct) {
        lines.push(`struct:${name}`);
        if (struct.extends !== undefined) lines.push(` extends:${fq(struct.extends)}`);
        const fields = [...(struct.fields ?? [])].sort((a, b) => compare(a.name, b.name));
        for (const field of fields) lines.push(` field:${field.name}:${typeText(field.type)}${field.optional ? '?' : ''}`);
      } else if (enumDecl) {
        lines.push(`enum:${name}`);
        for (const value of (enumDecl.values ?? []).map((v) => v.name).sort(compare)) lines.push(` value:${value}`);
      }
    }
    texts.set(iface.name, lines.map((line) => `${line}\n`).join(''));
  }
  return texts;
}

/** Code-unit order, independent of locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 lower-case hex digits. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}
