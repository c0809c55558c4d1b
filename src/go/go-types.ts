/**
 * IDL types in Go: the Go type of a field, parameter or result, and the type descriptor the
 * runtime checks answers with (`idlrpc.Method.Result`, `RegisterStruct`).
 */
import type { TypeRef } from '../idl/ast.js';
import type { IdlModel } from '../idl/model.js';
import type { GoPackage, GoProgram } from './go-program.js';

/** The standard-library and sibling packages a file's types use, by import path. */
export type Imports = Set<string>;

export interface GoTypeContext {
  model: IdlModel;
  program: GoProgram;
  /** The package the code is written in. */
  pkg: GoPackage;
  /** The module path of the output directory. */
  module: string;
  imports: Imports;
}

const BUILT_IN: Record<string, { go: string; import?: string }> = {
  string: { go: 'string' },
  int: { go: 'int64' },
  float: { go: 'float64' },
  bool: { go: 'bool' },
  timestamp: { go: 'time.Time', import: 'time' },
  date: { go: 'string' },
  bytes: { go: '[]byte' },
  json: { go: 'json.RawMessage', import: 'encoding/json' },
};

/** The Go type of an IDL type (of a required item). */
export function goType(type: TypeRef, context: GoTypeContext): string {
  switch (type.kind) {
    case 'builtIn': {
      const builtIn = BUILT_IN[type.name];
      if (builtIn.import) context.imports.add(builtIn.import);
      return builtIn.go;
    }
    case 'array':
      return `[]${goType(type.element, context)}`;
    case 'map':
      return `map[string]${goType(type.value, context)}`;
    case 'named':
      return namedType(type.name, context);
  }
}

/** A declared type, qualified with its package when it is another namespace's. */
function namedType(idlName: string, context: GoTypeContext): string {
  const name = context.program.typeName.get(idlName)!;
  const declaration = context.model.types.get(idlName) ?? context.model.unionsByName?.get(idlName);
  const owner = context.program.packageOf(declaration?.namespace);
  if (owner === context.pkg) return name;
  context.imports.add(`${context.module}/${owner.name}`);
  return `${owner.name}.${name}`;
}

/** Whether a Go type has a nil of its own (slices, maps, `[]byte`, `json.RawMessage`): no pointer needed for "absent". */
export function isNillable(type: TypeRef): boolean {
  return type.kind === 'array' || type.kind === 'map' || (type.kind === 'builtIn' && (type.name === 'bytes' || type.name === 'json'));
}

/** The Go type of an optional item: a pointer, unless the type has a nil of its own. */
export function goOptionalType(type: TypeRef, context: GoTypeContext): string {
  const go = goType(type, context);
  return isNillable(type) ? go : `*${go}`;
}

/** The runtime's descriptor of an IDL type: `string`, `[]T`, `map[string]T`, `@<IDL name>`; `?` first when null is allowed. */
export function typeDescriptor(type: TypeRef, optional = false): string {
  const prefix = optional ? '?' : '';
  switch (type.kind) {
    case 'builtIn':
      return prefix + type.name;
    case 'array':
      return `${prefix}[]${typeDescriptor(type.element)}`;
    case 'map':
      return `${prefix}map[string]${typeDescriptor(type.value)}`;
    case 'named':
      return `${prefix}@${type.name}`;
  }
}
