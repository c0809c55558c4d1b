/**
 * The IDL as JSON (docs/protocol.md §2): what the built-in `rpc-idl` method serves and what the
 * runtime builds validators from, plus the contract checksum.
 */
import { createHash } from 'node:crypto';
import type {
  IdlJson,
  IdlJsonDocTags,
  IdlJsonEnum,
  IdlJsonEnumValue,
  IdlJsonError,
  IdlJsonField,
  IdlJsonInterface,
  IdlJsonAttributes,
  IdlJsonMethod,
  IdlJsonParameter,
  IdlJsonStruct,
  IdlJsonType,
  IdlJsonUnion,
} from '../../runtime/idl-json.js';
import { type Attribute, discriminatorOf, type Documented, type Name, type Parameter, type TypeRef } from './ast.js';
import { attributeChecksumLines, constraintsOf, defaultOf } from './attributes.js';
import { docCommentParts, docTags } from './doc-tags.js';
import type { IdlModel } from './model.js';

/** A parameter in the JSON form: its name, type, and what its attribute list says. */
function parameterToJson(parameter: Parameter): IdlJsonParameter {
  const out: IdlJsonParameter = { name: parameter.name.text, type: typeToJson(parameter.type) };
  if (parameter.optional) out.optional = true;
  addAttributes(out, parameter.attributes);
  return out;
}

/** `default` and `constraints`, only when the list says them (the family's JSON stays as it was). */
function addAttributes(target: IdlJsonAttributes, attributes: readonly Attribute[] | undefined): void {
  const fallback = defaultOf(attributes);
  if (fallback) target.default = fallback.value;
  const constraints = constraintsOf(attributes);
  if (constraints) target.constraints = constraints;
}

/** The JSON form of a checked model. Empty members and false flags are left out. */
export function toIdlJson(model: IdlModel): IdlJson {
  const rootNamespace = model.namespace;
  // Each declaration's own namespace: the root's, or that of the imported file declaring it.
  const namespaceOf = (declaration: { namespace?: string }) => declaration.namespace ?? rootNamespace;
  const json: IdlJson = { rootNamespace, checksum: idlChecksum(model) };

  const interfaces = model.interfaces.map((iface): IdlJsonInterface => {
    const methods = iface.methods.map(
      (method): IdlJsonMethod => ({
        name: method.name.text,
        ...commentOf(method),
        ...(method.parameters.length > 0 ? { parameters: method.parameters.map(parameterToJson) } : {}),
        returnType: typeToJson(method.returnType),
        ...(method.returnOptional ? { returnOptional: true as const } : {}),
        // Only on stream methods: the JSON of an IDL without streams stays as it was.
        ...(method.stream ? { stream: true as const } : {}),
        ...(method.returnAttributes && constraintsOf(method.returnAttributes)
          ? { returnConstraints: constraintsOf(method.returnAttributes) }
          : {}),
        ...(method.raises.length > 0 ? { raises: method.raises.map((name) => name.text) } : {}),
      }),
    );
    const out: IdlJsonInterface = { name: iface.name.text, namespace: namespaceOf(iface) };
    addComment(out, iface);
    if (methods.length > 0) out.methods = methods;
    return out;
  });

  const structs = model.structs.map((struct): IdlJsonStruct => {
    const out: IdlJsonStruct = { name: struct.name.text, namespace: namespaceOf(struct) };
    if (struct.extends) out.extends = struct.extends.text;
    addComment(out, struct);
    if (struct.fields.length > 0) {
      out.fields = struct.fields.map((field): IdlJsonField => {
        const f: IdlJsonField = { name: field.name.text, type: typeToJson(field.type) };
        if (field.optional) f.optional = true;
        addAttributes(f, field.attributes);
        addComment(f, field);
        return f;
      });
    }
    return out;
  });

  const enums = model.enums.map((enumDecl): IdlJsonEnum => {
    const out: IdlJsonEnum = { name: enumDecl.name.text, namespace: namespaceOf(enumDecl) };
    addComment(out, enumDecl);
    if (enumDecl.values.length > 0) {
      out.values = enumDecl.values.map((value) => {
        const v: IdlJsonEnumValue = { name: value.name.text };
        addComment(v, value);
        return v;
      });
    }
    return out;
  });

  const errors = model.errors.map((error): IdlJsonError => {
    const out: IdlJsonError = {
      name: qualifiedErrorName(model, error),
      namespace: namespaceOf(error),
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
  // Last, and only when there are some: the JSON of an IDL without unions stays byte-identical.
  if (model.unions && model.unions.length > 0) {
    json.unions = model.unions.map((union): IdlJsonUnion => {
      const out: IdlJsonUnion = { name: union.name.text, namespace: namespaceOf(union), discriminator: discriminatorOf(union) };
      addComment(out, union);
      if (union.variants.length > 0) {
        out.variants = union.variants.map((variant) => ({ tag: variant.tag.text, type: variant.type.text, ...commentOf(variant) }));
      }
      return out;
    });
  }
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
 * base64url (no padding) of the SHA-256 of `canonicalContractText(model)`: the same value the other
 * implementations of this IDL compute, so a client can compare its contract with a server's.
 */
export function idlChecksum(model: IdlModel): string {
  return createHash('sha256').update(canonicalContractText(model), 'utf8').digest('base64url');
}

/**
 * The contract as the IDL family's checksum sees it (docs/idl.md "JSON form and checksum"): one
 * `\n`-terminated line per declaration and member, everything sorted by name. Comments, error
 * messages and declaration order are left out. Its quirks are the family's and are kept on purpose
 * (the value must match theirs): parameters are sorted too, so swapping two of them does not change
 * the text although it breaks positional callers.
 */
export function canonicalContractText(model: IdlModel): string {
  const namespace = model.namespace;
  // `fq`: the declaration's namespace before its name, even when that name is already qualified.
  const fq = (declaration: { name: Name; namespace?: string }) => qualifiedName(declaration.namespace ?? namespace, declaration.name.text);
  const unions = model.unions ?? [];
  const declared = new Set<string>([...model.interfaces, ...model.structs, ...model.enums, ...model.errors, ...unions].map(fq));
  const typeText = (type: TypeRef): string => contractTypeText(type, namespace, declared);
  const byName = <T extends { name: Name }>(items: readonly T[]): T[] => [...items].sort((a, b) => compareText(a.name.text, b.name.text));

  const lines = [`namespace:${namespace}`];
  for (const iface of byName(model.interfaces)) {
    lines.push(`interface:${fq(iface)}`);
    for (const method of byName(iface.methods)) {
      lines.push(`  method:${method.name.text}`);
      for (const p of byName(method.parameters)) {
        lines.push(`    param:${p.name.text}:${typeText(p.type)}${p.optional ? ':optional' : ''}`);
        lines.push(...attributeChecksumLines(p.attributes, '      '));
      }
      lines.push(`    returns:${typeText(method.returnType)}`);
      // Only on stream methods: the text (and checksum) of an IDL without streams is the family's, unchanged.
      if (method.stream) lines.push('    stream:true');
      if (method.returnOptional) lines.push('    returnOptional:true');
      lines.push(...attributeChecksumLines(method.returnAttributes, '      '));
      for (const raised of method.raises.map((r) => r.text).sort(compareText)) lines.push(`    raises:${raised}`);
    }
  }
  for (const struct of byName(model.structs)) {
    lines.push(`struct:${fq(struct)}`);
    if (struct.extends) lines.push(`  extends:${userTypeText(struct.extends.text, namespace, declared)}`);
    for (const field of byName(struct.fields)) {
      lines.push(`  field:${field.name.text}:${typeText(field.type)}${field.optional ? ':optional' : ''}`);
      lines.push(...attributeChecksumLines(field.attributes, '    '));
    }
  }
  for (const enumDecl of byName(model.enums)) {
    lines.push(`enum:${fq(enumDecl)}`);
    for (const value of byName(enumDecl.values)) lines.push(`  value:${value.name.text}`);
  }
  const errors = model.errors.map((error) => ({ name: qualifiedErrorName(model, error), code: error.code }));
  for (const error of errors.sort((a, b) => compareText(a.name, b.name))) lines.push(`error:${error.name}:${error.code}`);
  // Unions last: the text of an IDL without them is the family's, unchanged.
  for (const union of byName(unions)) {
    lines.push(`union:${fq(union)}`, `  discriminator:${discriminatorOf(union)}`);
    const byTag = [...union.variants].sort((a, b) => compareText(a.tag.text, b.tag.text));
    for (const variant of byTag) lines.push(`  variant:${variant.tag.text}:${userTypeText(variant.type.text, namespace, declared)}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * The name of an error in the JSON form: always qualified. The root's errors are named plainly in
 * the model; those of an imported namespace already carry it.
 */
export function qualifiedErrorName(model: IdlModel, error: { name: Name; namespace?: string }): string {
  return error.namespace === undefined ? qualifiedName(model.namespace, error.name.text) : error.name.text;
}

/**
 * `<namespace>.<name>`, even when the name is already qualified: the family's `fq` does the same
 * (an imported `inc.Response` becomes `inc.inc.Response`).
 */
function qualifiedName(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}.${name}`;
}

/** A type in the canonical text: builtins and containers as written, user types qualified. */
function contractTypeText(type: TypeRef, namespace: string, declared: ReadonlySet<string>): string {
  switch (type.kind) {
    case 'builtIn':
      return type.name;
    case 'array':
      return `[]${contractTypeText(type.element, namespace, declared)}`;
    case 'map':
      return `map[string]${contractTypeText(type.value, namespace, declared)}`;
    case 'named':
      return userTypeText(type.name, namespace, declared);
  }
}

/** A user type as `<namespace>.<Name>` when that is declared; a dotted or undeclared name as written. */
function userTypeText(name: string, namespace: string, declared: ReadonlySet<string>): string {
  if (name.includes('.')) return name;
  const qualified = `${namespace}.${name}`;
  return declared.has(qualified) ? qualified : name;
}

/** Code-unit order, independent of locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds the node's description (its doc comment without tag lines) and its doc tags to `target`. */
function addComment(target: { comment?: string } & IdlJsonDocTags, node: Documented): void {
  Object.assign(target, commentOf(node));
}

/** `comment` (the description) and the doc tags of a node; nothing for a node without a doc comment. */
function commentOf(node: Documented): { comment?: string } & IdlJsonDocTags {
  if (node.comment === undefined || node.comment === '') return {};
  if (!node.comment.includes('@')) return { comment: node.comment };
  const description = docCommentParts(node.comment).description;
  return { ...(description !== undefined ? { comment: description } : {}), ...docTags(node.comment) };
}
