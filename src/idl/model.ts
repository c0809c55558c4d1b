/**
 * The checked model: an IDL file that passed every check, with its names resolved.
 *
 * This is what every consumer reads (JSON form, TypeScript generator, OpenAPI converter, plugin,
 * CLI). Only `checkIdl` builds one, so a consumer may rely on: a namespace exists, every named type
 * and raised error resolves, names are unique, `extends` chains end.
 */
import type { EnumDecl, ErrorDecl, Field, IdlFile, InterfaceDecl, Method, StructDecl, UnionDecl } from './ast.js';

/** A file a model was compiled from. */
export interface ModelSourceFile {
  fileName: string;
  /** The namespace of its declarations when it is an imported file with one (absent: the root's). */
  namespace?: string;
}

export interface IdlModel {
  /** The root file, its declarations joined by those of the files it imports (names qualified: see link.ts). */
  file: IdlFile;
  /** The root file's namespace. */
  namespace: string;
  /** The root file first, then every imported file in import order. */
  files: ModelSourceFile[];
  namespaceComment?: string;
  /** Declarations of each kind, in source order. */
  enums: EnumDecl[];
  structs: StructDecl[];
  /** The errors of every `errors` block, in source order. */
  errors: ErrorDecl[];
  interfaces: InterfaceDecl[];
  /** Enums and structs by name. */
  types: ReadonlyMap<string, EnumDecl | StructDecl>;
  errorsByName: ReadonlyMap<string, ErrorDecl>;
  /** The unions in source order, and by name; absent when the IDL declares none. Not in `types`. */
  unions?: UnionDecl[];
  unionsByName?: ReadonlyMap<string, UnionDecl>;
}

/**
 * The struct's fields including inherited ones, the root ancestor's first. Walks the `extends`
 * chain once: time linear in the chain's length and its fields.
 */
export function allFields(model: IdlModel, struct: StructDecl): Field[] {
  const chain: StructDecl[] = [];
  for (let current: StructDecl | undefined = struct; current; ) {
    chain.push(current);
    const parent: EnumDecl | StructDecl | undefined = current.extends && model.types.get(current.extends.text);
    current = parent?.kind === 'struct' ? parent : undefined;
  }
  const fields: Field[] = [];
  for (let i = chain.length - 1; i >= 0; i--) for (const field of chain[i].fields) fields.push(field);
  return fields;
}

/**
 * Whether the method streams (`stream T`: docs/idl.md, "Streams"); its `returnType` is then the
 * type of each item. The model's reading of the tree's `Method.stream` span.
 */
export function isStreamMethod(method: Pick<Method, 'stream'>): boolean {
  return method.stream !== undefined;
}
