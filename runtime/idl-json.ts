/**
 * The IDL as JSON (docs/protocol.md §2): what the built-in `rpc-idl` method serves and what the runtime
 * builds validators from. Empty members and false flags are left out.
 */

/**
 * The doc tags of an item (docs/idl.md, "Doc tags"), beside its `comment` (which no longer holds the
 * tag lines). None of them is part of the checksum.
 */
export interface IdlJsonDocTags {
  /** `@deprecated <why>`: the reason, '' when none is given. */
  deprecated?: string;
  /** `@readonly` (methods only): the method changes nothing. */
  readonly?: true;
  /** `@example <JSON>` (methods, structs, fields, enums): values of the item (of a method: results), in order. */
  examples?: unknown[];
}

export type IdlJsonType =
  | { builtIn: 'string' | 'int' | 'float' | 'bool' | 'timestamp' | 'date' | 'bytes' | 'json' }
  | { array: IdlJsonType }
  | { mapValue: IdlJsonType }
  | { userDefined: string };

/**
 * The constraints of an attribute list (docs/idl.md, "Attributes"), under the IDL's attribute names.
 * On an array or map, the element's kind of constraint applies to each element (`minItems` and
 * `maxItems` to the array itself).
 */
export interface IdlJsonConstraints {
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  /** An ECMA-262 regular expression, read with the `u` flag, unanchored. */
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  /** `email`, `uri`, `uuid`, `ipv4`, `ipv6` and `hostname` are checked; other names are kept, not checked. */
  format?: string;
}

/**
 * The attribute-list members of a field, parameter or return. Absent when the IDL writes none, so the
 * JSON of an IDL without attribute lists is the family's, unchanged.
 */
export interface IdlJsonAttributes {
  /** `default=<JSON>`: what a request that leaves the item out gets (present even when the value is null). */
  default?: unknown;
  constraints?: IdlJsonConstraints;
}

export interface IdlJsonParameter extends IdlJsonAttributes {
  name: string;
  type: IdlJsonType;
  /** `[optional]`: callers may leave it out. */
  optional?: true;
}

export interface IdlJsonMethod extends IdlJsonDocTags {
  name: string;
  comment?: string;
  parameters?: IdlJsonParameter[];
  /** The type of the result; of each item for a stream method. */
  returnType: IdlJsonType;
  returnOptional?: true;
  /**
   * `stream T`: the method answers with any number of items of `returnType` over time, then an end
   * or an error (docs/protocol.md, "Streams"). Absent for a plain method.
   */
  stream?: true;
  /** The constraints of the return's attribute list. */
  returnConstraints?: IdlJsonConstraints;
  /** The errors the method may raise: plain names for the root namespace's, `<namespace>.<Name>` for an imported one's. */
  raises?: string[];
}

export interface IdlJsonInterface extends IdlJsonDocTags {
  /** Plain for the root namespace's interfaces, `<namespace>.<Name>` for an imported namespace's. */
  name: string;
  namespace: string;
  comment?: string;
  methods?: IdlJsonMethod[];
}

export interface IdlJsonField extends IdlJsonDocTags, IdlJsonAttributes {
  name: string;
  type: IdlJsonType;
  optional?: true;
  comment?: string;
}

export interface IdlJsonStruct extends IdlJsonDocTags {
  name: string;
  namespace: string;
  extends?: string;
  comment?: string;
  fields?: IdlJsonField[];
}

export interface IdlJsonEnumValue extends IdlJsonDocTags {
  name: string;
  comment?: string;
}

export interface IdlJsonEnum extends IdlJsonDocTags {
  name: string;
  namespace: string;
  comment?: string;
  values?: IdlJsonEnumValue[];
}

/** One variant of a union: the discriminator's value `tag` selects the struct `type`. */
export interface IdlJsonUnionVariant extends IdlJsonDocTags {
  tag: string;
  /** The struct's name, as a `userDefined` type names it. */
  type: string;
  comment?: string;
}

export interface IdlJsonUnion extends IdlJsonDocTags {
  name: string;
  namespace: string;
  /** The property that carries the tag on the wire (always written, `kind` when the IDL leaves it out). */
  discriminator: string;
  comment?: string;
  variants?: IdlJsonUnionVariant[];
}

export interface IdlJsonError extends IdlJsonDocTags {
  /** Qualified: `<namespace>.<Name>`. */
  name: string;
  namespace: string;
  code: number;
  message: string;
  comment?: string;
}

export interface IdlJson {
  rootNamespace: string;
  /** base64url (no padding) SHA-256 of the canonical contract text; see docs/protocol.md §2. */
  checksum: string;
  interfaces?: IdlJsonInterface[];
  structs?: IdlJsonStruct[];
  enums?: IdlJsonEnum[];
  errors?: IdlJsonError[];
  /** Discriminated unions of structs; absent when the IDL declares none (docs/protocol.md §2). */
  unions?: IdlJsonUnion[];
}
