/**
 * The contextual built-in types `timestamp`, `date`, `bytes` and `json` (docs/idl.md, "Types").
 *
 * Their names are not reserved words, so files that name a field, a parameter or a type `date` stay
 * valid. The parser reads them as names; after linking, a reference that no declared struct or enum
 * answers becomes the built-in type. A struct or enum declared under such a name therefore wins
 * wherever it is in scope (the JSON form then says `userDefined`, the built-in says `builtIn`).
 */
import type { ContextualBuiltInTypeName, Declaration, IdlFile, TypeRef } from './ast.js';
import { withDeclarations } from './idl-file.js';

/** The built-in types whose names are not reserved. */
export const CONTEXTUAL_BUILT_IN_TYPES: ReadonlySet<string> = new Set<ContextualBuiltInTypeName>(['timestamp', 'date', 'bytes', 'json']);

/**
 * `file` with every type reference that names a contextual built-in type, and no struct or enum of
 * that name, made a built-in type. Returns `file` itself when nothing changes.
 */
export function resolveBuiltInTypes(file: IdlFile): IdlFile {
  const declared = new Set<string>();
  for (const declaration of file.declarations) {
    if (declaration.kind === 'struct' || declaration.kind === 'enum') declared.add(declaration.name.text);
  }
  const type = (ref: TypeRef): TypeRef => {
    switch (ref.kind) {
      case 'builtIn':
        return ref;
      case 'array': {
        const element = type(ref.element);
        return element === ref.element ? ref : { ...ref, element };
      }
      case 'map': {
        const value = type(ref.value);
        return value === ref.value ? ref : { ...ref, value };
      }
      case 'named':
        return CONTEXTUAL_BUILT_IN_TYPES.has(ref.name) && !declared.has(ref.name)
          ? { kind: 'builtIn', name: ref.name as ContextualBuiltInTypeName, span: ref.span }
          : ref;
    }
  };
  let changed = false;
  const declarations = file.declarations.map((declaration): Declaration => {
    const resolved = resolveDeclaration(declaration, type);
    if (resolved !== declaration) changed = true;
    return resolved;
  });
  return changed ? withDeclarations(file, declarations) : file;
}

function resolveDeclaration(declaration: Declaration, type: (ref: TypeRef) => TypeRef): Declaration {
  if (declaration.kind === 'struct') {
    let changed = false;
    const fields = declaration.fields.map((field) => {
      const resolved = type(field.type);
      if (resolved === field.type) return field;
      changed = true;
      return { ...field, type: resolved };
    });
    return changed ? { ...declaration, fields } : declaration;
  }
  if (declaration.kind === 'interface') {
    let changed = false;
    const methods = declaration.methods.map((method) => {
      const returnType = type(method.returnType);
      let methodChanged = returnType !== method.returnType;
      const parameters = method.parameters.map((parameter) => {
        const resolved = type(parameter.type);
        if (resolved === parameter.type) return parameter;
        methodChanged = true;
        return { ...parameter, type: resolved };
      });
      if (!methodChanged) return method;
      changed = true;
      return { ...method, returnType, parameters };
    });
    return changed ? { ...declaration, methods } : declaration;
  }
  return declaration;
}
