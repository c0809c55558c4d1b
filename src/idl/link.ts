/**
 * Linking: the files of a program (program.ts) become one syntax tree that the checker reads like a
 * single file (docs/idl.md, "Several files").
 *
 * The root file's declarations are kept as they are. Those of an imported file with a namespace are
 * copied with their names qualified (`Money` -> `common.Money`, marked with `namespace: 'common'`),
 * and every reference written in that file to a name of its own namespace is qualified the same way,
 * so each name in the linked tree is the one the JSON form and the generators use. A qualified
 * reference to the root's namespace (`checkout.Cart`) becomes the plain name the root declares.
 * A reference that names nothing is left as written, for the checker to report where it is written.
 */
import type { Declaration, ErrorDecl, IdlFile, InterfaceDecl, Method, Name, StructDecl, TypeRef } from './ast.js';
import { withDeclarations } from './idl-file.js';
import type { LoadedFile } from './program.js';

/** The names declared in one namespace scope (types and interfaces share one space, errors another). */
interface ScopeNames {
  types: Set<string>;
  errors: Set<string>;
}

/** One tree holding every file's declarations: the root's first, then each imported file's, in import order. */
export function linkProgram(files: readonly LoadedFile[]): IdlFile {
  const [root] = files;
  if (files.length === 1) return root.file;
  const rootNamespace = root.file.namespace?.name.text;
  const scopes = new Map<string | undefined, ScopeNames>();
  for (const { file, scope } of files) {
    let names = scopes.get(scope);
    if (!names) scopes.set(scope, (names = { types: new Set(), errors: new Set() }));
    for (const declaration of file.declarations) {
      if (declaration.kind === 'errors') for (const error of declaration.errors) names.errors.add(error.name.text);
      else names.types.add(declaration.name.text);
    }
  }
  const rootNames = scopes.get(undefined)!;

  const declarations: Declaration[] = [];
  for (const { file, scope } of files) {
    if (scope === undefined) {
      declarations.push(...file.declarations);
      continue;
    }
    const own = scopes.get(scope)!;
    const qualify = (name: string) => `${scope}.${name}`;
    const resolveName = (name: string, space: keyof ScopeNames): string => {
      if (!name.includes('.')) return own[space].has(name) ? qualify(name) : name;
      const dot = name.indexOf('.');
      const [namespace, rest] = [name.slice(0, dot), name.slice(dot + 1)];
      return namespace === rootNamespace && rootNames[space].has(rest) ? rest : name;
    };
    const linker = new ScopeLinker(scope, qualify, resolveName);
    for (const declaration of file.declarations) declarations.push(linker.declaration(declaration));
  }
  // The root's own qualified references to itself (`checkout.Cart` in checkout.idl) read as plain names.
  if (rootNamespace !== undefined) {
    const plain = (name: string, space: keyof ScopeNames) =>
      name.startsWith(`${rootNamespace}.`) && rootNames[space].has(name.slice(rootNamespace.length + 1))
        ? name.slice(rootNamespace.length + 1)
        : name;
    const rootLinker = new ScopeLinker(undefined, (name) => name, plain);
    for (let i = 0; i < root.file.declarations.length; i++) declarations[i] = rootLinker.declaration(declarations[i]);
  }

  return withDeclarations(root.file, declarations);
}

/** Copies the declarations of one scope with their names and references resolved. */
class ScopeLinker {
  constructor(
    private readonly scope: string | undefined,
    private readonly qualify: (name: string) => string,
    private readonly resolveName: (name: string, space: 'types' | 'errors') => string,
  ) {}

  declaration(declaration: Declaration): Declaration {
    switch (declaration.kind) {
      case 'enum':
        return this.imported({ ...declaration, name: this.declared(declaration.name) });
      case 'struct':
        return this.struct(declaration);
      case 'errors':
        return { ...declaration, errors: declaration.errors.map((error) => this.error(error)) };
      case 'interface':
        return this.interface(declaration);
      case 'union':
        return this.imported({
          ...declaration,
          name: this.declared(declaration.name),
          variants: declaration.variants.map((variant) => ({ ...variant, type: this.referenced(variant.type, 'types') })),
        });
    }
  }

  private imported<T extends { namespace?: string }>(declaration: T): T {
    if (this.scope !== undefined) declaration.namespace = this.scope;
    return declaration;
  }

  private declared(name: Name): Name {
    return this.scope === undefined ? name : { ...name, text: this.qualify(name.text) };
  }

  private referenced(name: Name, space: 'types' | 'errors'): Name {
    const text = this.resolveName(name.text, space);
    return text === name.text ? name : { ...name, text };
  }

  private type(type: TypeRef): TypeRef {
    switch (type.kind) {
      case 'builtIn':
        return type;
      case 'array':
        return { ...type, element: this.type(type.element) };
      case 'map':
        return { ...type, value: this.type(type.value) };
      case 'named': {
        const name = this.resolveName(type.name, 'types');
        return name === type.name ? type : { ...type, name };
      }
    }
  }

  private struct(struct: StructDecl): StructDecl {
    const copy: StructDecl = {
      ...struct,
      name: this.declared(struct.name),
      fields: struct.fields.map((field) => ({ ...field, type: this.type(field.type) })),
    };
    if (struct.extends) copy.extends = this.referenced(struct.extends, 'types');
    return this.imported(copy);
  }

  private error(error: ErrorDecl): ErrorDecl {
    return this.imported({ ...error, name: this.declared(error.name) });
  }

  private interface(iface: InterfaceDecl): InterfaceDecl {
    const methods = iface.methods.map(
      (method): Method => ({
        ...method,
        parameters: method.parameters.map((parameter) => ({ ...parameter, type: this.type(parameter.type) })),
        returnType: this.type(method.returnType),
        raises: method.raises.map((raised) => this.referenced(raised, 'errors')),
      }),
    );
    return this.imported({ ...iface, name: this.declared(iface.name), methods });
  }
}
