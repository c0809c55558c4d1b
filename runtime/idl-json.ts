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

export interface IdlJsonParameter {
  name: string;
  type: IdlJsonType;
}

export interface IdlJsonMethod extends IdlJsonDocTags {
  name: string;
  comment?: string;
  parameters?: IdlJsonParameter[];
  returnType: IdlJsonType;
  returnOptional?: true;
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

export interface IdlJsonField extends IdlJsonDocTags {
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
