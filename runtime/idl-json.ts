/**
 * The IDL as JSON (docs/protocol.md §2): what the built-in `rpc-idl` method serves and what the runtime
 * builds validators from. Empty members and false flags are left out.
 */

export type IdlJsonType =
  | { builtIn: 'string' | 'int' | 'float' | 'bool' }
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
  /** Names of the declared errors the method may raise (unqualified, as written in `raises`). */
  raises?: string[];
}

export interface IdlJsonInterface {
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
