/**
 * The IDL as JSON (docs/protocol.md §2): what the built-in `rpc-idl` method serves and what the
 * runtime builds validators from, plus the contract checksum.
 */
import { createHash } from 'node:crypto';
import type {
  IdlJson,
  IdlJsonEnum,
  IdlJsonError,
  IdlJsonField,
  IdlJsonInterface,
  IdlJsonMethod,
  IdlJsonStruct,
  IdlJsonType,
} from '../../runtime/idl-json.js';
import type { Documented, TypeRef } from './ast.js';
import { printType } from './format.js';
import type { IdlModel } from './model.js';

/** The JSON form of a checked model. Empty members and false flags are left out. */
export function toIdlJson(model: IdlModel): IdlJson {
  const namespace = model.namespace;
  const json: IdlJson = { rootNamespace: namespace, checksum: idlChecksum(model) };

  const interfaces = model.interfaces.map((iface): IdlJsonInterface => {
    const methods = iface.methods.map(
      (method): IdlJsonMethod => ({
        name: method.name.text,
        ...commentOf(method),
        ...(method.parameters.length > 0
          ? { parameters: method.parameters.map((p) => ({ name: p.name.text, type: typeToJson(p.type) })) }
          : {}),
        returnType: typeToJson(method.returnType),
        ...(method.returnOptional ? { returnOptional: true as const } : {}),
        ...(method.raises.length > 0 ? { raises: method.raises.map((name) => name.text) } : {}),
      }),
    );
    const out: IdlJsonInterface = { name: iface.name.text, namespace };
    addComment(out, iface);
    if (methods.length > 0) out.methods = methods;
    return out;
  });

  const structs = model.structs.map((struct): IdlJsonStruct => {
    const out: IdlJsonStruct = { name: struct.name.text, namespace };
    if (struct.extends) out.extends = struct.extends.text;
    addComment(out, struct);
    if (struct.fields.length > 0) {
      out.fields = struct.fields.map((field): IdlJsonField => {
        const f: IdlJsonField = { name: field.name.text, type: typeToJson(field.type) };
        if (field.optional) f.optional = true;
        addComment(f, field);
        return f;
      });
    }
    return out;
  });

  const enums = model.enums.map((enumDecl): IdlJsonEnum => {
    const out: IdlJsonEnum = { name: enumDecl.name.text, namespace };
    addComment(out, enumDecl);
    if (enumDecl.values.length > 0) {
      out.values = enumDecl.values.map((value) => {
        const v: { name: string; comment?: string } = { name: value.name.text };
        addComment(v, value);
        return v;
      });
    }
    return out;
  });

  const errors = model.errors.map((error): IdlJsonError => {
    const out: IdlJsonError = {
      name: `${namespace}.${error.name.text}`,
      namespace,
      code: error.code,
      message: error.message,
    };
    addComment(out, error);
    return out;
  });

  if (interfaces.length > 0) json.interfaces = interfaces;
  if (structs.length > 0) json.structs = structs;
  if (enums.length > 0) json.enums = enums;
  if (errors.length > 0) json.errors = errors;
  return json;
}

/** The JSON form of a type expression. */
export function typeToJson(type: TypeRef): IdlJsonType {
  switch (type.kind) {
    case 'builtIn':
      return { builtIn: type.name };
    case 'array':
      return { array: typeToJson(type.element) };
    case 'map':
      return { mapValue: typeToJson(type.value) };
    case 'named':
      return { userDefined: type.name };
  }
}

/**
 * base64url (no padding) of the SHA-256 of `canonicalContractText(model)`: it changes exactly when
 * the contract changes, not when comments, whitespace or declaration order do.
 */
export function idlChecksum(model: IdlModel): string {
  return createHash('sha256').update(canonicalContractText(model), 'utf8').digest('base64url');
}

/**
 * The contract as text, one line per declaration, declarations sorted by kind then name (see
 * docs/idl.md "Checksum"). Field, parameter and enum value order is kept: it is part of the
 * contract (positional params, parent-first fields). Methods, errors and raised errors are sorted:
 * their order changes nothing on the wire.
 */
export function canonicalContractText(model: IdlModel): string {
  const lines: { kind: number; name: string; text: string }[] = [];
  for (const e of model.enums) {
    lines.push({ kind: 0, name: e.name.text, text: `enum ${e.name.text} ${e.values.map((v) => v.name.text).join(' ')}` });
  }
  for (const error of model.errors) {
    lines.push({
      kind: 1,
      name: error.name.text,
      text: `error ${error.name.text} ${error.code} ${JSON.stringify(error.message)}`,
    });
  }
  for (const iface of model.interfaces) {
    const methods = [...iface.methods]
      .sort((a, b) => compareText(a.name.text, b.name.text))
      .map((m) => {
        const parameters = m.parameters.map((p) => `${p.name.text} ${printType(p.type)}`).join(', ');
        const optional = m.returnOptional ? ' [optional]' : '';
        const raised = m.raises.map((r) => r.text).sort(compareText);
        const raises = raised.length > 0 ? ` raises(${raised.join(', ')})` : '';
        return ` ${m.name.text}(${parameters}) ${printType(m.returnType)}${optional}${raises};`;
      });
    lines.push({ kind: 2, name: iface.name.text, text: `interface ${iface.name.text}${methods.join('')}` });
  }
  for (const s of model.structs) {
    const parent = s.extends ? ` extends ${s.extends.text}` : '';
    const fields = s.fields.map((f) => ` ${f.name.text} ${printType(f.type)}${f.optional ? ' [optional]' : ''};`);
    lines.push({ kind: 3, name: s.name.text, text: `struct ${s.name.text}${parent}${fields.join('')}` });
  }
  lines.sort((a, b) => a.kind - b.kind || compareText(a.name, b.name));
  return [`namespace ${model.namespace}`, ...lines.map((line) => line.text)].join('\n') + '\n';
}

/** Code-unit order, independent of locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function addComment(target: { comment?: string }, node: Documented): void {
  if (node.comment !== undefined && node.comment !== '') target.comment = node.comment;
}

function commentOf(node: Documented): { comment?: string } {
  return node.comment !== undefined && node.comment !== '' ? { comment: node.comment } : {};
}
