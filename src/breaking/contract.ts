/**
 * The contract as the breaking-change check compares it: every interface, method, struct, enum and
 * error by the name the wire uses, with where each is written. Built from a checked model (with
 * locations) or from the IDL JSON that `rpc-idl` serves (without: the JSON form has none), so both
 * kinds of baseline compare the same way.
 */
import type { IdlJson, IdlJsonConstraints, IdlJsonType } from '../../runtime/idl-json.js';
import { type Attribute, discriminatorOf, type SourceSpan } from '../idl/ast.js';
import { constraintsOf, defaultOf } from '../idl/attributes.js';
import { docTags, isDeprecated } from '../idl/doc-tags.js';
import { typeToJson } from '../idl/json.js';
import type { IdlModel } from '../idl/model.js';

/** Where a changed item is written: a file, and a 1-based line and column when known. */
export interface ChangeLocation {
  file: string;
  line?: number;
  column?: number;
}

/** What an attribute list says of a field or parameter (docs/idl.md, "Attributes"). */
export interface ContractAttributes {
  default?: { value: unknown };
  constraints?: IdlJsonConstraints;
}

export interface ContractParameter extends ContractAttributes {
  name: string;
  type: IdlJsonType;
  optional: boolean;
  location: ChangeLocation;
}

export interface ContractMethod {
  name: string;
  /** Marked `@deprecated` (docs/idl.md, "Doc tags"): reported, never breaking. */
  deprecated?: true;
  /** Marked `@readonly`: also answered over GET (docs/protocol.md, "Reads over GET"), so removing the mark breaks its GETs. */
  readonly?: true;
  parameters: ContractParameter[];
  returnType: IdlJsonType;
  returnOptional: boolean;
  /** `stream T` (docs/idl.md, "Streams"): `returnType` is then each item's type. */
  stream: boolean;
  returnConstraints?: IdlJsonConstraints;
  /** Raised errors, named as in ContractErrors (plain for the root namespace's). */
  raises: string[];
  location: ChangeLocation;
}

export interface ContractInterface {
  name: string;
  /** Marked `@deprecated` (docs/idl.md, "Doc tags"): reported, never breaking. */
  deprecated?: true;
  methods: Map<string, ContractMethod>;
  location: ChangeLocation;
}

export interface ContractField extends ContractAttributes {
  name: string;
  /** Marked `@deprecated` (docs/idl.md, "Doc tags"): reported, never breaking. */
  deprecated?: true;
  type: IdlJsonType;
  optional: boolean;
  location: ChangeLocation;
}

export interface ContractStruct {
  name: string;
  /** Marked `@deprecated` (docs/idl.md, "Doc tags"): reported, never breaking. */
  deprecated?: true;
  extends?: string;
  /** Own fields, without inherited ones. */
  fields: Map<string, ContractField>;
  location: ChangeLocation;
}

export interface ContractEnum {
  name: string;
  /** Marked `@deprecated` (docs/idl.md, "Doc tags"): reported, never breaking. */
  deprecated?: true;
  values: Map<string, ChangeLocation>;
  location: ChangeLocation;
}

/** One variant of a union: the struct its tag selects. */
export interface ContractUnionVariant {
  tag: string;
  type: string;
  location: ChangeLocation;
}

export interface ContractUnion {
  name: string;
  discriminator: string;
  /** By tag. */
  variants: Map<string, ContractUnionVariant>;
  location: ChangeLocation;
}

export interface ContractError {
  /** Plain for the root namespace's errors, `<namespace>.<Name>` for an imported namespace's. */
  name: string;
  code: number;
  message: string;
  location: ChangeLocation;
}

export interface Contract {
  namespace: string;
  namespaceLocation: ChangeLocation;
  interfaces: Map<string, ContractInterface>;
  structs: Map<string, ContractStruct>;
  enums: Map<string, ContractEnum>;
  /** Discriminated unions (docs/idl.md, "Unions"). */
  unions: Map<string, ContractUnion>;
  errors: Map<string, ContractError>;
}

/**
 * The contract of a checked model. `fileLabel` turns the model's file names into what a report
 * shows (a git baseline shows `<rev>:<path>`).
 */
export function contractFromModel(model: IdlModel, fileLabel: (fileName: string) => string = (name) => name): Contract {
  const at = (span: SourceSpan): ChangeLocation => ({ file: fileLabel(span.file), line: span.start.line, column: span.start.column });
  const namespaceSpan = model.file.namespace?.name.span;
  return {
    namespace: model.namespace,
    namespaceLocation: namespaceSpan ? at(namespaceSpan) : { file: fileLabel(model.file.fileName) },
    interfaces: byName(
      model.interfaces.map((iface) => ({
        name: iface.name.text,
        ...deprecation(isDeprecated(iface.comment)),
        location: at(iface.name.span),
        methods: byName(
          iface.methods.map((method) => ({
            name: method.name.text,
            ...deprecation(isDeprecated(method.comment)),
            ...(docTags(method.comment).readonly ? { readonly: true as const } : {}),
            parameters: method.parameters.map((p) => ({
              name: p.name.text,
              type: typeToJson(p.type),
              optional: p.optional === true,
              ...modelAttributes(p.attributes),
              location: at(p.name.span),
            })),
            returnType: typeToJson(method.returnType),
            returnOptional: method.returnOptional,
            stream: method.stream !== undefined,
            ...present('returnConstraints', constraintsOf(method.returnAttributes)),
            raises: method.raises.map((raised) => raised.text),
            location: at(method.name.span),
          })),
        ),
      })),
    ),
    structs: byName(
      model.structs.map((struct) => ({
        name: struct.name.text,
        ...deprecation(isDeprecated(struct.comment)),
        ...(struct.extends ? { extends: struct.extends.text } : {}),
        location: at(struct.name.span),
        fields: byName(
          struct.fields.map((field) => ({
            name: field.name.text,
            ...deprecation(isDeprecated(field.comment)),
            type: typeToJson(field.type),
            optional: field.optional,
            ...modelAttributes(field.attributes),
            location: at(field.name.span),
          })),
        ),
      })),
    ),
    enums: byName(
      model.enums.map((enumDecl) => ({
        name: enumDecl.name.text,
        ...deprecation(isDeprecated(enumDecl.comment)),
        location: at(enumDecl.name.span),
        values: new Map(enumDecl.values.map((value) => [value.name.text, at(value.name.span)])),
      })),
    ),
    unions: byName(
      (model.unions ?? []).map((union) => ({
        name: union.name.text,
        discriminator: discriminatorOf(union),
        location: at(union.name.span),
        variants: new Map(
          union.variants.map((variant) => [
            variant.tag.text,
            { tag: variant.tag.text, type: variant.type.text, location: at(variant.tag.span) },
          ]),
        ),
      })),
    ),
    errors: byName(
      model.errors.map((error) => ({ name: error.name.text, code: error.code, message: error.message, location: at(error.name.span) })),
    ),
  };
}

/**
 * The contract of an IDL JSON document (what `rpc-idl` serves). It has no positions: every item is
 * located at `fileName` alone.
 */
export function contractFromJson(json: IdlJson, fileName: string): Contract {
  const location: ChangeLocation = { file: fileName };
  const rootPrefix = `${json.rootNamespace}.`;
  // The JSON qualifies every error name; the model names the root's plainly (as `raises` does).
  const errorName = (error: { name: string; namespace: string }) =>
    error.namespace === json.rootNamespace && error.name.startsWith(rootPrefix) ? error.name.slice(rootPrefix.length) : error.name;
  return {
    namespace: json.rootNamespace,
    namespaceLocation: location,
    interfaces: byName(
      (json.interfaces ?? []).map((iface) => ({
        name: iface.name,
        ...deprecation(iface.deprecated !== undefined),
        location,
        methods: byName(
          (iface.methods ?? []).map((method) => ({
            name: method.name,
            ...deprecation(method.deprecated !== undefined),
            ...(method.readonly === true ? { readonly: true as const } : {}),
            parameters: (method.parameters ?? []).map((p) => ({
              name: p.name,
              type: p.type,
              optional: p.optional === true,
              ...jsonAttributes(p),
              location,
            })),
            returnType: method.returnType,
            ...present('returnConstraints', method.returnConstraints),
            returnOptional: method.returnOptional === true,
            stream: method.stream === true,
            raises: method.raises ?? [],
            location,
          })),
        ),
      })),
    ),
    structs: byName(
      (json.structs ?? []).map((struct) => ({
        name: struct.name,
        ...deprecation(struct.deprecated !== undefined),
        ...(struct.extends !== undefined ? { extends: struct.extends } : {}),
        location,
        fields: byName(
          (struct.fields ?? []).map((field) => ({
            name: field.name,
            ...deprecation(field.deprecated !== undefined),
            type: field.type,
            optional: field.optional === true,
            ...jsonAttributes(field),
            location,
          })),
        ),
      })),
    ),
    enums: byName(
      (json.enums ?? []).map((enumDecl) => ({
        name: enumDecl.name,
        ...deprecation(enumDecl.deprecated !== undefined),
        location,
        values: new Map((enumDecl.values ?? []).map((value) => [value.name, location])),
      })),
    ),
    unions: byName(
      (json.unions ?? []).map((union) => ({
        name: union.name,
        discriminator: union.discriminator,
        location,
        variants: new Map((union.variants ?? []).map((variant) => [variant.tag, { tag: variant.tag, type: variant.type, location }])),
      })),
    ),
    errors: byName((json.errors ?? []).map((error) => ({ name: errorName(error), code: error.code, message: error.message, location }))),
  };
}

function byName<T extends { name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.name, item]));
}

/** `{deprecated: true}` for a deprecated item, nothing otherwise. */
function deprecation(deprecated: boolean): { deprecated?: true } {
  return deprecated ? { deprecated: true } : {};
}

/** The default and constraints of a model's attribute list, as members (absent when none). */
function modelAttributes(attributes: readonly Attribute[] | undefined): ContractAttributes {
  const fallback = defaultOf(attributes);
  return { ...(fallback ? { default: fallback } : {}), ...present('constraints', constraintsOf(attributes)) };
}

/** The same, from the JSON form's members. */
function jsonAttributes(item: { default?: unknown; constraints?: IdlJsonConstraints }): ContractAttributes {
  return { ...('default' in item ? { default: { value: item.default } } : {}), ...present('constraints', item.constraints) };
}

/** `{ [key]: value }`, or nothing when the value is undefined. */
function present<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
