/**
 * The input keys of the phases that phase-memo.ts reuses: for each, a text holding everything the
 * phase reads but the names it asks for (which the memo records itself). Two generations with the
 * same key and the same answers to those questions generate the same phase output.
 *
 * A key holds the declarations the phase reaches from the methods, not the whole IDL: the phases
 * never read the others, so an edit of a type no method reaches, or adding one, reuses them. The
 * declarations are written as their JSON form (what the schemas and serializers are made from),
 * found from the methods' types through fields, arrays, maps, `extends` and union variants.
 */
import { printAttributeList } from '../idl/attributes.js';
import { printType } from '../idl/format.js';
import type { SourceSpan } from '../idl/ast.js';
import type { IdlModel } from '../idl/model.js';
import type { ClientContracts } from './emit-client.js';
import type { IdlJson, IdlJsonEnum, IdlJsonMethod, IdlJsonStruct, IdlJsonType, IdlJsonUnion } from '../../runtime/idl-json.js';
import { qualifiedMethodName } from '../../runtime/schema.js';
import { declarationText } from './interned-idl-json.js';

/**
 * The key of `validatorDeclarations` (emit-validators.ts) for the `served` interfaces: each method's
 * signature as the IDL writes it (doc comments and names come from it) and as the JSON form has it
 * (the schemas come from that), then the declarations the methods reach, in the order of the
 * schemas' references (structs, enums, unions), each struct marked when some struct extends it.
 */
export function validatorsKey(served: IdlModel['interfaces'], idl: IdlJson): string {
  const lines: string[] = [];
  const roots: IdlJsonType[] = [];
  const methodsByName = new Map(
    (idl.interfaces ?? []).flatMap((iface) => (iface.methods ?? []).map((m) => [qualifiedMethodName(iface, m), m] as const)),
  );
  for (const iface of served) {
    for (const method of iface.methods) {
      const key = `${iface.name.text}.${method.name.text}`;
      const parameters = method.parameters.map((p) => `${printType(p.type)}${printAttributeList(p.attributes, p.optional === true)}`);
      const result = `${printType(method.returnType)}${printAttributeList(method.returnAttributes, method.returnOptional)}`;
      const json = methodsByName.get(key);
      lines.push(`${key}(${parameters.join(', ')}) ${result} ${json === undefined ? '' : methodText(json)}`);
      if (json) roots.push(...(json.parameters ?? []).map((p) => p.type), json.returnType);
    }
  }
  const reached = reachedDeclarations(idl, roots);
  const extended = new Set((idl.structs ?? []).flatMap((struct) => (struct.extends === undefined ? [] : [struct.extends])));
  for (const struct of idl.structs ?? []) {
    if (reached.has(struct.name)) lines.push(`${extended.has(struct.name) ? 'extended ' : ''}struct ${declarationText(struct)}`);
  }
  for (const e of idl.enums ?? []) if (reached.has(e.name)) lines.push(`enum ${declarationText(e)}`);
  for (const union of idl.unions ?? []) if (reached.has(union.name)) lines.push(`union ${declarationText(union)}`);
  for (const [name, declaration] of reached) if (declaration === undefined) lines.push(`unknown ${JSON.stringify(name)}`);
  return lines.join('\n');
}

/** A method's JSON form as text, kept per (interned) JSON object: a dev edit keeps most of them. */
const methodTexts = new WeakMap<IdlJsonMethod, string>();

/** `method` as JSON without its comment, which the validators never read: editing one reuses them. */
function methodText(method: IdlJsonMethod): string {
  let text = methodTexts.get(method);
  if (text === undefined) methodTexts.set(method, (text = JSON.stringify({ ...method, comment: undefined })));
  return text;
}

/**
 * What the client classes and the handler interfaces (emit-client.ts, emit-server.ts) read of
 * `interfaces`: names and where they are written (the anchors of the source maps), doc comments,
 * parameters, results, streams, and the errors raised with their codes and messages.
 */
export function interfacesKey(interfaces: IdlModel['interfaces'], errorsByName: IdlModel['errorsByName']): string {
  const lines: string[] = [];
  for (const iface of interfaces) {
    lines.push(
      `interface ${iface.name.text} ${iface.namespace ?? ''} ${placeOf(iface.name.span)} ${JSON.stringify(iface.comment ?? null)}`,
    );
    for (const method of iface.methods) {
      const parameters = method.parameters.map(
        (p) => `${p.name.text} ${printType(p.type)}${printAttributeList(p.attributes, p.optional === true)}`,
      );
      const result = `${printType(method.returnType)}${printAttributeList(method.returnAttributes, method.returnOptional)}`;
      const raises = method.raises.map((raised) => {
        const error = errorsByName.get(raised.text);
        return `${raised.text} ${error?.code} ${JSON.stringify(error?.message ?? null)}`;
      });
      const stream = method.stream ? 'stream ' : '';
      lines.push(
        `  ${method.name.text} ${placeOf(method.name.span)} ${stream}(${parameters.join(', ')}) ${result} raises(${raises.join(', ')}) ${JSON.stringify(method.comment ?? null)}`,
      );
    }
  }
  return lines.join('\n');
}

/** What the client classes take from the program's JSON form: each interface's fingerprint and its methods' conversions. */
export function contractsKey(interfaces: IdlModel['interfaces'], { fingerprints, conversions }: ClientContracts): string {
  return interfaces
    .map((iface) => {
      const converted = iface.methods.map((method) => JSON.stringify(conversions.get(`${iface.name.text}.${method.name.text}`) ?? null));
      return `${fingerprints.get(iface.name.text)} ${converted.join(' ')}`;
    })
    .join('\n');
}

/** Where a name is written: what its source map anchor holds. */
function placeOf(span: SourceSpan): string {
  return `${span.file}:${span.start.line}:${span.start.column}`;
}

/**
 * The key of `serializerDeclarations` (emit-serializers.ts): each method's result type, then the
 * declarations the results reach, in the order reached.
 */
export function serializersKey(idl: IdlJson): string {
  const lines: string[] = [];
  const roots: IdlJsonType[] = [];
  for (const iface of idl.interfaces ?? []) {
    for (const method of iface.methods ?? []) {
      lines.push(JSON.stringify([iface.name, method.name, method.returnType, method.returnOptional === true]));
      roots.push(method.returnType);
    }
  }
  for (const [name, reached] of reachedDeclarations(idl, roots)) {
    lines.push(`${reached?.kind ?? 'unknown'} ${reached ? declarationText(reached.declaration) : JSON.stringify(name)}`);
  }
  return lines.join('\n');
}

/** A declaration of the IDL JSON and its kind. */
interface ReachedDeclaration {
  kind: 'struct' | 'enum' | 'union';
  declaration: IdlJsonStruct | IdlJsonEnum | IdlJsonUnion;
}

/**
 * The declarations `roots` reach, by name, in the order reached (undefined for a name the IDL JSON
 * does not declare).
 */
function reachedDeclarations(idl: IdlJson, roots: readonly IdlJsonType[]): Map<string, ReachedDeclaration | undefined> {
  const structs = new Map((idl.structs ?? []).map((struct) => [struct.name, struct] as const));
  const unions = new Map((idl.unions ?? []).map((union) => [union.name, union] as const));
  const enums = new Map((idl.enums ?? []).map((e) => [e.name, e] as const));
  const reached = new Map<string, ReachedDeclaration | undefined>();
  // A work list, not recursion: an `extends` chain thousands of structs long is that deep.
  const pending = [...roots].reverse();
  for (let type = pending.pop(); type !== undefined; type = pending.pop()) {
    if ('array' in type) pending.push(type.array);
    else if ('mapValue' in type) pending.push(type.mapValue);
    else if ('userDefined' in type && !reached.has(type.userDefined)) {
      const name = type.userDefined;
      const struct = structs.get(name);
      const union = unions.get(name);
      const e = enums.get(name);
      reached.set(
        name,
        struct
          ? { kind: 'struct', declaration: struct }
          : union
            ? { kind: 'union', declaration: union }
            : e
              ? { kind: 'enum', declaration: e }
              : undefined,
      );
      if (struct) {
        if (struct.extends !== undefined) pending.push({ userDefined: struct.extends });
        for (const field of struct.fields ?? []) pending.push(field.type);
      } else if (union) {
        for (const variant of union.variants ?? []) pending.push({ userDefined: variant.type });
      }
    }
  }
  return reached;
}
