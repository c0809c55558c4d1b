/**
 * The IDL as JSON (docs/protocol.md §2): what the built-in `rpc-idl` method serves and what the runtime
 * builds validators from. Empty members and false flags are left out.
 */

export type IdlJsonType =
  | { builtIn: 'string' | 'int' | 'float' | 'bool' | 'timestamp' | 'date' | 'bytes' | 'json' }
  | { array: IdlJsonType }
  | { mapValue: IdlJsonType }
  | { userDefined: string };

export interface IdlJsonParameter {
  name: string;
  type: IdlJsonType;
}

export interface IdlJsonMethod {
  name: string;
  comment?: string;
  parameters?: IdlJsonParameter[];
  returnType: IdlJsonType;
  returnOptional?: true;
  /** The errors the method may raise: plain names for the root namespace's, `<namespace>.<Name>` for an imported one's. */
  raises?: string[];
}

export interface IdlJsonInterface {
  /** Plain for the root namespace's interfaces, `<namespace>.<Name>` for an imported namespace's. */
  name: string;
  namespace: string;
  comment?: string;
  methods?: IdlJsonMethod[];
}

export interface IdlJsonField {
  name: string;
  type: IdlJsonType;
  optional?: true;
  comment?: string;
}

export interface IdlJsonStruct {
  name: string;
  namespace: string;
  extends?: string;
  comment?: string;
  fields?: IdlJsonField[];
}

export interface IdlJsonEnumValue {
  name: string;
  comment?: string;
}

export interface IdlJsonEnum {
  name: string;
  namespace: string;
  comment?: string;
  values?: IdlJsonEnumValue[];
}

export interface IdlJsonError {
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
}
