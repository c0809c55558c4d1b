/**
 * Test helper: one valid IDL file split into several that import each other, the way a user moves
 * shared types into files of their own (docs/idl.md, "Several files"). Declarations that depend on
 * each other in a cycle (structs referring to each other) stay together; the groups are put in an
 * order where each comes after everything it uses and cut into consecutive chunks. Every chunk but
 * the last becomes an imported file with a namespace of its own; the last is the root file with the
 * original namespace; each file imports all files before it, and names declared in another file are
 * written qualified (`part0.Money`). Names of the file's own namespace are sometimes written
 * qualified too, which the language allows.
 */
import fc from 'fast-check';
import {
  type Declaration,
  type IdlFile,
  type ImportDecl,
  type Name,
  printIdl,
  syntheticName,
  syntheticSpan,
  type TypeRef,
} from '../../src/idl/index.js';

type Gen = fc.GeneratorValue;

export interface SplitFiles {
  /** The text of every file, by name. */
  files: Record<string, string>;
  /** The name of the root file (the one that imports the others). */
  root: string;
  /** The namespaces of the imported files, by file name. */
  namespaces: Record<string, string>;
}

/** The names a declaration uses: types (and interfaces) and errors. */
interface Uses {
  types: string[];
  errors: string[];
}

function namedTypes(type: TypeRef): string[] {
  switch (type.kind) {
    case 'builtIn':
      return [];
    case 'array':
      return namedTypes(type.element);
    case 'map':
      return namedTypes(type.value);
    case 'named':
      return [type.name];
  }
}

function usesOf(declaration: Declaration): Uses {
  switch (declaration.kind) {
    case 'enum':
    case 'errors':
      return { types: [], errors: [] };
    case 'struct':
      return {
        types: [...(declaration.extends ? [declaration.extends.text] : []), ...declaration.fields.flatMap((f) => namedTypes(f.type))],
        errors: [],
      };
    case 'union':
      return { types: declaration.variants.map((variant) => variant.type.text), errors: [] };
    case 'interface':
      return {
        types: declaration.methods.flatMap((m) => [...m.parameters.flatMap((p) => namedTypes(p.type)), ...namedTypes(m.returnType)]),
        errors: declaration.methods.flatMap((m) => m.raises.map((name) => name.text)),
      };
  }
}

/**
 * The declarations grouped by cycles of use (Tarjan's strongly connected components), each group
 * after every group it uses.
 */
function groupsInDependencyOrder(declarations: readonly Declaration[]): number[][] {
  const typeOwner = new Map<string, number>();
  const errorOwner = new Map<string, number>();
  declarations.forEach((declaration, index) => {
    if (declaration.kind === 'errors') for (const error of declaration.errors) errorOwner.set(error.name.text, index);
    else typeOwner.set(declaration.name.text, index);
  });
  const edges = declarations.map((declaration) => {
    const uses = usesOf(declaration);
    return [...new Set([...uses.types.map((t) => typeOwner.get(t)!), ...uses.errors.map((e) => errorOwner.get(e)!)])];
  });
  const groups: number[][] = [];
  const indexOf = new Map<number, number>();
  const lowLink = new Map<number, number>();
  const stack: number[] = [];
  const onStack = new Set<number>();
  const visit = (node: number) => {
    indexOf.set(node, indexOf.size);
    lowLink.set(node, indexOf.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges[node]) {
      if (!indexOf.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, indexOf.get(next)!));
      }
    }
    if (lowLink.get(node) !== indexOf.get(node)) return;
    const group: number[] = [];
    let member: number;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    // Tarjan completes a group only after every group it reaches: dependencies come first.
    groups.push(group.sort((a, b) => a - b));
  };
  for (let node = 0; node < declarations.length; node++) if (!indexOf.has(node)) visit(node);
  return groups;
}

/** Splits `file` (valid, one namespace) into 2 or 3 files; see the file comment. */
export function splitIntoFiles(g: Gen, file: IdlFile): SplitFiles {
  const rootNamespace = file.namespace!.name.text;
  const groups = groupsInDependencyOrder(file.declarations);
  const fileCount = g(fc.integer, { min: 2, max: 3 });
  const cuts = [...Array.from({ length: fileCount - 1 }, () => g(fc.integer, { min: 0, max: groups.length })).sort((a, b) => a - b)];
  const bounds = [0, ...cuts, groups.length];
  const chunks = Array.from({ length: fileCount }, (_, k) =>
    groups
      .slice(bounds[k], bounds[k + 1])
      .flat()
      .sort((a, b) => a - b),
  );

  const fileNames = chunks.map((_, k) => (k === fileCount - 1 ? 'root.idl' : `part${k}.idl`));
  const namespaceOf = chunks.map((_, k) => (k === fileCount - 1 ? rootNamespace : `part${k}${rootNamespace === `part${k}` ? 'x' : ''}`));
  const chunkOfType = new Map<string, number>();
  const chunkOfError = new Map<string, number>();
  chunks.forEach((members, k) => {
    for (const index of members) {
      const declaration = file.declarations[index];
      if (declaration.kind === 'errors') for (const error of declaration.errors) chunkOfError.set(error.name.text, k);
      else chunkOfType.set(declaration.name.text, k);
    }
  });

  const files: Record<string, string> = {};
  const namespaces: Record<string, string> = {};
  chunks.forEach((members, k) => {
    const fileName = fileNames[k];
    /** A name as chunk `k` writes it: qualified when another file declares it, sometimes when this one does. */
    const written = (name: string, owner: number): string =>
      owner !== k || g(fc.integer, { min: 0, max: 3 }) === 0 ? `${namespaceOf[owner]}.${name}` : name;
    const typeName = (name: string) => written(name, chunkOfType.get(name)!);
    const rewriteType = (type: TypeRef): TypeRef => {
      switch (type.kind) {
        case 'builtIn':
          return type;
        case 'array':
          return { ...type, element: rewriteType(type.element) };
        case 'map':
          return { ...type, value: rewriteType(type.value) };
        case 'named':
          return { ...type, name: typeName(type.name) };
      }
    };
    const rewriteName = (name: Name, text: string): Name => ({ ...name, text });
    const rewritten = (declaration: Declaration): Declaration => {
      switch (declaration.kind) {
        case 'enum':
        case 'errors':
          return declaration;
        case 'struct': {
          const struct = { ...declaration, fields: declaration.fields.map((field) => ({ ...field, type: rewriteType(field.type) })) };
          if (declaration.extends) struct.extends = rewriteName(declaration.extends, typeName(declaration.extends.text));
          return struct;
        }
        case 'interface':
          return {
            ...declaration,
            methods: declaration.methods.map((method) => ({
              ...method,
              parameters: method.parameters.map((parameter) => ({ ...parameter, type: rewriteType(parameter.type) })),
              returnType: rewriteType(method.returnType),
              raises: method.raises.map((name) => rewriteName(name, written(name.text, chunkOfError.get(name.text)!))),
            })),
          };
        case 'union':
          return {
            ...declaration,
            variants: declaration.variants.map((variant) => ({ ...variant, type: rewriteName(variant.type, typeName(variant.type.text)) })),
          };
      }
    };
    const declarations = members.map((index) => rewritten(file.declarations[index]));
    const imports = fileNames
      .slice(0, k)
      .map((path): ImportDecl => ({ kind: 'import', path, pathSpan: syntheticSpan(fileName), span: syntheticSpan(fileName) }));
    const namespace =
      k === fileCount - 1
        ? file.namespace!
        : { kind: 'namespace' as const, name: syntheticName(namespaceOf[k], fileName), span: syntheticSpan(fileName) };
    files[fileName] = printIdl({ fileName, source: '', namespace, imports, declarations });
    if (k < fileCount - 1) namespaces[fileName] = namespaceOf[k];
  });
  return { files, root: 'root.idl', namespaces };
}
