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
 * The value is `2.` and 16 hex digits: 64-bit FNV-1a hashes built per type (`typeFingerprints`),
 * so that an interface's fingerprint costs what its own methods cost, not what everything it reaches
 * costs again (version 1 hashed each interface's whole reach: quadratic in an IDL whose types refer
 * to one another in a long line). Version 1 (`1.`, the hash of one canonical text per interface) is
 * still computed, on demand, by servers, so that clients generated before version 2 keep being
 * compared during the upgrade. Not a security measure (a client can send anything): a way to see
 * version skew.
 */
import type { IdlJson, IdlJsonAttributes, IdlJsonEnum, IdlJsonStruct, IdlJsonType, IdlJsonUnion } from './idl-json.js';

/** The version prefix of the fingerprints generated clients send (`interfaceFingerprints`). */
export const FINGERPRINT_VERSION = '2';

/** The version prefix of the fingerprints of clients generated before version 2 (`legacyInterfaceFingerprints`). */
export const LEGACY_FINGERPRINT_VERSION = '1';

/**
 * The version-2 fingerprint of every interface of `idl`, keyed by the interface's name as the JSON
 * has it: `2.` and the FNV-1a 64 of the interface's own lines (as in version 1) followed by
 * ` type:<fq>:<type fingerprint>` for each struct, enum or union its methods name directly (sorted by
 * fq); see `typeFingerprints` for what a type's fingerprint covers.
 */
export function interfaceFingerprints(idl: IdlJson): Map<string, string> {
  const { interfaces, typeFingerprint } = fingerprintParts(idl);
  const fingerprints = new Map<string, string>();
  for (const [name, { head, named }] of interfaces) {
    const text = head + named.map((type) => ` type:${type}:${typeFingerprint(type)}\n`).join('');
    fingerprints.set(name, `${FINGERPRINT_VERSION}.${fnv1a64(text)}`);
  }
  return fingerprints;
}

/**
 * The fingerprint of every struct, enum and union of `idl`, keyed by fq name: 16 hex digits of the
 * FNV-1a 64 of the lines (version 1's, see `canonicalInterfaceTexts`) of the types of its strongly
 * connected component of the type graph (the types that reach one another through fields, arrays,
 * maps, `extends` and variants: usually the type alone), sorted by fq, followed by
 * ` ref:<fq>:<fingerprint>` for each type outside the component that they refer to (sorted by fq).
 * So a type's fingerprint changes when anything it reaches changes, and each type's lines are hashed
 * once whatever reaches it.
 */
export function typeFingerprints(idl: IdlJson): Map<string, string> {
  const { types, typeFingerprint } = fingerprintParts(idl);
  return new Map([...types.keys()].sort(compare).map((name) => [name, typeFingerprint(name)]));
}

/**
 * The version-1 fingerprint of every interface of `idl` (`1.` and the FNV-1a 64 of the text
 * `canonicalInterfaceTexts` gives), what clients generated before version 2 send. Costs the size
 * of what each interface reaches, so servers compute it only when such a client calls.
 */
export function legacyInterfaceFingerprints(idl: IdlJson): Map<string, string> {
  // Hashed piece by piece, each declaration's bytes encoded once: the texts of an IDL whose types
  // refer to one another in a long line hold most declarations each, and joining them cost more
  // than hashing them.
  const { interfaces, declarationText } = canonicalInterfaceParts(idl);
  const declarationBytes = new Map<string, Uint8Array>();
  const fingerprints = new Map<string, string>();
  for (const [name, { head, reached }] of interfaces) {
    const hash = new Fnv1a64().update(utf8.encode(head));
    for (const declaration of reached) {
      let bytes = declarationBytes.get(declaration);
      if (bytes === undefined) declarationBytes.set(declaration, (bytes = utf8.encode(declarationText(declaration))));
      hash.update(bytes);
    }
    fingerprints.set(name, `${LEGACY_FINGERPRINT_VERSION}.${hash.digest()}`);
  }
  return fingerprints;
}

/**
 * The version-1 canonical text of every interface, keyed by its JSON name: `interface:<fq>`, then per method
 * (sorted by name) `method:<name>`, ` param:<name>:<type>` in declared order, ` returns:<type>`
 * (`?` appended when optional), ` stream` for a stream method, ` raises:<fq error>:<code>` (sorted); then every struct and enum
 * reached, sorted by fq: `struct:<fq>`, ` extends:<fq>`, ` field:<name>:<type>` (`?` when optional;
 * sorted), `enum:<fq>`, ` value:<name>` (sorted), `union:<fq>`, ` discriminator:<name>`,
 * ` variant:<tag>:<fq>` (sorted by tag; the variants' structs are reached too). A parameter,
 * field or return with an attribute list gets `?` when optional and ` <JSON of its default and
 * constraints>` at the end of its line. `<fq>` is `<namespace>.<Name>` for the root
 * namespace's names and the name as written for imported ones (already qualified). Lines end in `\n`.
 */
export function canonicalInterfaceTexts(idl: IdlJson): Map<string, string> {
  const { interfaces, declarationText } = canonicalInterfaceParts(idl);
  return new Map([...interfaces].map(([name, { head, reached }]) => [name, head + reached.map(declarationText).join('')]));
}

/**
 * The canonical text of every interface in two parts: its own lines (`head`) and the fq names of the
 * declarations it reaches, sorted, whose lines `declarationText` gives (written once per declaration).
 */
function canonicalInterfaceParts(idl: IdlJson): {
  interfaces: Map<string, { head: string; reached: string[] }>;
  declarationText: (name: string) => string;
} {
  const { interfaces: heads, declarationText, references } = canonicalLines(idl);
  const interfaces = new Map<string, { head: string; reached: string[] }>();
  for (const [name, { head, named }] of heads) {
    const reached = new Set<string>(named);
    const pending = [...named];
    for (let type = pending.pop(); type !== undefined; type = pending.pop()) {
      for (const referenced of references(type)) {
        if (!reached.has(referenced)) {
          reached.add(referenced);
          pending.push(referenced);
        }
      }
    }
    interfaces.set(name, { head, reached: [...reached].sort(compare) });
  }
  return { interfaces, declarationText };
}

/**
 * What the version-2 fingerprints are made of: each interface's head and the types it names, and
 * the fingerprint of a type (computed once per strongly connected component of the type graph, by
 * Tarjan's algorithm with an explicit stack: an `extends` chain thousands of structs long is that deep).
 */
function fingerprintParts(idl: IdlJson): {
  interfaces: Map<string, { head: string; named: string[] }>;
  types: ReadonlyMap<string, unknown>;
  typeFingerprint: (name: string) => string;
} {
  const { interfaces, types, declarationText, references } = canonicalLines(idl);
  const fingerprints = new Map<string, string>();
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const component: string[] = [];
  const visit = (root: string) => {
    const frames: { name: string; edges: string[]; next: number }[] = [];
    const open = (name: string) => {
      index.set(name, index.size);
      lowLink.set(name, index.get(name)!);
      component.push(name);
      onStack.add(name);
      frames.push({ name, edges: references(name), next: 0 });
    };
    open(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++];
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) lowLink.set(frame.name, Math.min(lowLink.get(frame.name)!, index.get(target)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) lowLink.set(parent.name, Math.min(lowLink.get(parent.name)!, lowLink.get(frame.name)!));
      if (lowLink.get(frame.name) !== index.get(frame.name)) continue;
      // `frame.name` roots a component: its members are on the stack above it, and every type they
      // refer to outside it already has its fingerprint (Tarjan finishes components callees first).
      const members = component.splice(component.lastIndexOf(frame.name)).sort(compare);
      for (const member of members) onStack.delete(member);
      const inside = new Set(members);
      const outside = new Set<string>();
      for (const member of members) for (const referenced of references(member)) if (!inside.has(referenced)) outside.add(referenced);
      const text =
        members.map(declarationText).join('') +
        [...outside]
          .sort(compare)
          .map((referenced) => ` ref:${referenced}:${fingerprints.get(referenced)}\n`)
          .join('');
      const hash = fnv1a64(text);
      for (const member of members) fingerprints.set(member, hash);
    }
  };
  const typeFingerprint = (name: string): string => {
    if (!fingerprints.has(name)) visit(name);
    return fingerprints.get(name)!;
  };
  return { interfaces, types, typeFingerprint };
}

/**
 * The canonical lines (version 1's) of `idl`: each interface's own lines (`head`) with the fq names
 * of the types its methods name (`named`, sorted), each declaration's lines (`declarationText`, made
 * once), and the fq names of the types a declaration refers to directly (`references`, once each, in
 * order of appearance; a name the IDL does not declare, such as an imported type left out, has none).
 */
function canonicalLines(idl: IdlJson): {
  interfaces: Map<string, { head: string; named: string[] }>;
  types: ReadonlyMap<string, { struct?: IdlJsonStruct; enum?: IdlJsonEnum; union?: IdlJsonUnion }>;
  declarationText: (name: string) => string;
  references: (name: string) => string[];
} {
  const root = idl.rootNamespace;
  // Qualified names are asked for again and again (once per interface reaching a type): made once.
  const qualified = new Map<string, string>();
  const fq = (name: string): string => {
    let full = qualified.get(name);
    if (full === undefined) qualified.set(name, (full = name.includes('.') ? name : `${root}.${name}`));
    return full;
  };
  const types = new Map<string, { struct?: IdlJsonStruct; enum?: IdlJsonEnum; union?: IdlJsonUnion }>();
  for (const struct of idl.structs ?? []) types.set(fq(struct.name), { struct });
  for (const enumDecl of idl.enums ?? []) types.set(fq(enumDecl.name), { enum: enumDecl });
  for (const union of idl.unions ?? []) types.set(fq(union.name), { union });
  const errorCodes = new Map((idl.errors ?? []).map((error) => [error.name, error.code]));
  const typeText = (type: IdlJsonType): string => {
    if ('builtIn' in type) return type.builtIn;
    if ('array' in type) return `[]${typeText(type.array)}`;
    if ('mapValue' in type) return `map[string]${typeText(type.mapValue)}`;
    return fq(type.userDefined);
  };
  const namedIn = (type: IdlJsonType): string | undefined => {
    if ('array' in type) return namedIn(type.array);
    if ('mapValue' in type) return namedIn(type.mapValue);
    return 'userDefined' in type ? fq(type.userDefined) : undefined;
  };
  // Each type's lines are written once, however many interfaces reach it (in an IDL whose types
  // refer to one another in a long line, every interface reaches most of them).
  const declarationTexts = new Map<string, string>();
  const declarationText = (name: string): string => {
    let text = declarationTexts.get(name);
    if (text !== undefined) return text;
    const lines: string[] = [];
    const { struct, enum: enumDecl, union } = types.get(name) ?? {};
    if (struct) {
      lines.push(`struct:${name}`);
      if (struct.extends !== undefined) lines.push(` extends:${fq(struct.extends)}`);
      const fields = [...(struct.fields ?? [])].sort((a, b) => compare(a.name, b.name));
      for (const field of fields)
        lines.push(` field:${field.name}:${typeText(field.type)}${field.optional ? '?' : ''}${attributesText(field)}`);
    } else if (enumDecl) {
      lines.push(`enum:${name}`);
      for (const value of (enumDecl.values ?? []).map((v) => v.name).sort(compare)) lines.push(` value:${value}`);
    } else if (union) {
      lines.push(`union:${name}`, ` discriminator:${union.discriminator}`);
      const variants = [...(union.variants ?? [])].sort((a, b) => compare(a.tag, b.tag));
      for (const variant of variants) lines.push(` variant:${variant.tag}:${fq(variant.type)}`);
    }
    text = lines.map((line) => `${line}\n`).join('');
    declarationTexts.set(name, text);
    return text;
  };
  const referencesByName = new Map<string, string[]>();
  const references = (name: string): string[] => {
    let found = referencesByName.get(name);
    if (found !== undefined) return found;
    const { struct, union } = types.get(name) ?? {};
    const unique = new Set<string>();
    if (struct?.extends !== undefined) unique.add(fq(struct.extends));
    for (const field of struct?.fields ?? []) {
      const named = namedIn(field.type);
      if (named !== undefined) unique.add(named);
    }
    for (const variant of union?.variants ?? []) unique.add(fq(variant.type));
    referencesByName.set(name, (found = [...unique]));
    return found;
  };
  const interfaces = new Map<string, { head: string; named: string[] }>();
  for (const iface of idl.interfaces ?? []) {
    const lines = [`interface:${fq(iface.name)}`];
    const named = new Set<string>();
    const note = (type: IdlJsonType) => {
      const name = namedIn(type);
      if (name !== undefined) named.add(name);
    };
    for (const method of [...(iface.methods ?? [])].sort((a, b) => compare(a.name, b.name))) {
      lines.push(`method:${method.name}`);
      for (const p of method.parameters ?? []) {
        lines.push(` param:${p.name}:${typeText(p.type)}${p.optional ? '?' : ''}${attributesText(p)}`);
        note(p.type);
      }
      lines.push(
        ` returns:${typeText(method.returnType)}${method.returnOptional ? '?' : ''}${attributesText({ constraints: method.returnConstraints })}`,
      );
      // A stream answers with events where a plain method answers with one result: another contract.
      if (method.stream) lines.push(' stream');
      note(method.returnType);
      for (const raised of (method.raises ?? []).map(fq).sort(compare)) lines.push(` raises:${raised}:${errorCodes.get(raised) ?? ''}`);
    }
    interfaces.set(iface.name, { head: lines.map((line) => `${line}\n`).join(''), named: [...named].sort(compare) });
  }
  return { interfaces, types, declarationText, references };
}

/** Code-unit order, independent of locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const utf8 = new TextEncoder();

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 lower-case hex digits. */
export function fnv1a64(text: string): string {
  return new Fnv1a64().update(utf8.encode(text)).digest();
}

/**
 * 64-bit FNV-1a over bytes given in pieces. The hash is kept in four 16-bit limbs (lowest first) so
 * every step is small-integer arithmetic: with a BigInt per byte, fingerprinting the interfaces of a
 * 10,000-line IDL took over a second of its generation. The prime is 2^40 + 0x1b3: a limb times
 * 0x1b3 stays in place, times 2^40 it moves up two limbs and 8 bits; what moves past 64 bits is
 * dropped.
 */
class Fnv1a64 {
  // The offset basis 0xcbf29ce484222325.
  #h0 = 0x2325;
  #h1 = 0x8422;
  #h2 = 0x9ce4;
  #h3 = 0xcbf2;

  update(bytes: Uint8Array): this {
    let h0 = this.#h0;
    let h1 = this.#h1;
    let h2 = this.#h2;
    let h3 = this.#h3;
    for (let index = 0; index < bytes.length; index++) {
      h0 ^= bytes[index];
      const t0 = h0 * 0x1b3;
      const t1 = h1 * 0x1b3 + (t0 >>> 16);
      const t2 = h2 * 0x1b3 + h0 * 0x100 + (t1 >>> 16);
      const t3 = h3 * 0x1b3 + h1 * 0x100 + (t2 >>> 16);
      h0 = t0 & 0xffff;
      h1 = t1 & 0xffff;
      h2 = t2 & 0xffff;
      h3 = t3 & 0xffff;
    }
    this.#h0 = h0;
    this.#h1 = h1;
    this.#h2 = h2;
    this.#h3 = h3;
    return this;
  }

  digest(): string {
    return [this.#h3, this.#h2, this.#h1, this.#h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
  }
}

/**
 * ` <JSON>` of an item's default and constraints (docs/idl.md, "Attributes"), or '' when it has
 * none: a fingerprint without attribute lists is what it was before they existed.
 */
function attributesText(item: IdlJsonAttributes): string {
  const parts: IdlJsonAttributes = {};
  if ('default' in item) parts.default = item.default;
  if (item.constraints) parts.constraints = item.constraints;
  return Object.keys(parts).length === 0 ? '' : ` ${JSON.stringify(parts)}`;
}
