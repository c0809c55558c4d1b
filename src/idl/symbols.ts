/**
 * The resolve pass: the symbol table of one file. Every declaration (top-level and member) with its
 * spans, and every name the file refers to (types of fields, parameters and returns, also inside
 * `[]T` and `map[string]T`, `extends` parents, `raises` errors) with its span and what it resolves to.
 *
 * It works on any tree: a partial one from a file with syntax errors, one with duplicate or unknown
 * names, one built by code. It reports nothing: judging the names is the checker's work, which reads
 * this table. Tools (an editor's "go to definition", "find references") read it too, through
 * symbol-queries.ts.
 *
 * Two name spaces, as in the language: types and interfaces share one (generated code declares them
 * side by side); errors have their own. A name resolves to the first declaration of that name in its
 * space, whatever its kind: a field typed with an interface's name resolves to the interface (the
 * checker says it is not a type); a `raises` of a struct's name resolves to nothing.
 */
import type {
  EnumDecl,
  EnumValue,
  ErrorDecl,
  Field,
  IdlFile,
  InterfaceDecl,
  Method,
  Name,
  NamespaceDecl,
  Parameter,
  SourceSpan,
  StructDecl,
  TypeRef,
  UnionDecl,
  UnionVariant,
} from './ast.js';

interface SymbolBase {
  name: string;
  /** Where the name is written in its declaration (the definition an editor jumps to). */
  nameSpan: SourceSpan;
  /** The whole declaration. */
  span: SourceSpan;
  /** The declaration this one is a member of: the enum, struct, interface or method. */
  container?: IdlSymbol;
}

/** A declared name, with the syntax node that declares it. */
export type IdlSymbol =
  | (SymbolBase & { kind: 'namespace'; node: NamespaceDecl })
  | (SymbolBase & { kind: 'enum'; node: EnumDecl })
  | (SymbolBase & { kind: 'enum-value'; node: EnumValue })
  | (SymbolBase & { kind: 'struct'; node: StructDecl })
  | (SymbolBase & { kind: 'field'; node: Field })
  | (SymbolBase & { kind: 'error'; node: ErrorDecl })
  | (SymbolBase & { kind: 'interface'; node: InterfaceDecl })
  | (SymbolBase & { kind: 'method'; node: Method })
  | (SymbolBase & { kind: 'parameter'; node: Parameter })
  | (SymbolBase & { kind: 'union'; node: UnionDecl })
  /** A union's variant, named by its tag; its struct is a `type` reference from it. */
  | (SymbolBase & { kind: 'variant'; node: UnionVariant });

export type SymbolKind = IdlSymbol['kind'];

/** The kinds of declaration that share the type name space. */
export type TypeSymbolKind = 'enum' | 'struct' | 'union' | 'interface';

/** A name used where a declaration is meant. */
export interface SymbolReference {
  /**
   * What the name must denote: `type` (a field's, parameter's or method's return type, or the
   * element of an array or map in one, or a union variant's struct), `extends` (a struct's parent) or `raises` (an error).
   */
  kind: 'type' | 'extends' | 'raises';
  name: string;
  span: SourceSpan;
  /** The declaration the name resolves to (the first of that name in its space); absent when none. */
  symbol?: IdlSymbol;
  /**
   * The declaration the name is written in: the field or parameter it types, the method whose
   * return type or `raises` it is in, or the struct it is the parent of.
   */
  from: IdlSymbol;
}

export interface SymbolTable {
  file: IdlFile;
  /** Every declaration in source order, members and duplicates included; the namespace first. */
  declarations: IdlSymbol[];
  /** Enums, structs, unions and interfaces by name: the first declaration of each name, in source order. */
  types: ReadonlyMap<string, IdlSymbol & { kind: TypeSymbolKind }>;
  /** Errors by name: the first declaration of each name, in source order. */
  errors: ReadonlyMap<string, IdlSymbol & { kind: 'error' }>;
  /** Every reference in source order. */
  references: SymbolReference[];
}

/**
 * Builds the symbol table of a parsed (possibly partial or invalid) file. Linear in the size of the
 * tree.
 */
export function resolve(file: IdlFile): SymbolTable {
  const declarations: IdlSymbol[] = [];
  const types = new Map<string, IdlSymbol & { kind: TypeSymbolKind }>();
  const errors = new Map<string, IdlSymbol & { kind: 'error' }>();
  // Collected first, resolved once every declaration is known (a name may be used before it is declared).
  const pending: Omit<SymbolReference, 'symbol'>[] = [];

  const declare = <S extends IdlSymbol>(symbol: S): S => {
    declarations.push(symbol);
    return symbol;
  };
  const symbolOf = <K extends SymbolKind>(
    kind: K,
    node: Extract<IdlSymbol, { kind: K }>['node'] & { name: Name; span: SourceSpan },
    container?: IdlSymbol,
  ) => {
    const symbol = { kind, name: node.name.text, nameSpan: node.name.span, span: node.span, node } as Extract<IdlSymbol, { kind: K }>;
    if (container) symbol.container = container;
    return declare(symbol);
  };
  const refer = (kind: SymbolReference['kind'], name: Name, from: IdlSymbol) =>
    pending.push({ kind, name: name.text, span: name.span, from });
  const referToType = (type: TypeRef, from: IdlSymbol) => {
    let inner = type;
    while (inner.kind === 'array' || inner.kind === 'map') inner = inner.kind === 'array' ? inner.element : inner.value;
    if (inner.kind === 'named') pending.push({ kind: 'type', name: inner.name, span: inner.span, from });
  };
  const nameType = (symbol: IdlSymbol & { kind: TypeSymbolKind }) => {
    if (!types.has(symbol.name)) types.set(symbol.name, symbol);
  };

  if (file.namespace) symbolOf('namespace', file.namespace);
  for (const declaration of file.declarations) {
    if (declaration.kind === 'enum') {
      const enumSymbol = symbolOf('enum', declaration);
      nameType(enumSymbol);
      for (const value of declaration.values) symbolOf('enum-value', value, enumSymbol);
    } else if (declaration.kind === 'struct') {
      const struct = symbolOf('struct', declaration);
      nameType(struct);
      if (declaration.extends) refer('extends', declaration.extends, struct);
      for (const field of declaration.fields) referToType(field.type, symbolOf('field', field, struct));
    } else if (declaration.kind === 'union') {
      const union = symbolOf('union', declaration);
      nameType(union);
      for (const variant of declaration.variants) {
        const variantSymbol = declare({
          kind: 'variant',
          name: variant.tag.text,
          nameSpan: variant.tag.span,
          span: variant.span,
          node: variant,
          container: union,
        });
        refer('type', variant.type, variantSymbol);
      }
    } else if (declaration.kind === 'errors') {
      for (const error of declaration.errors) {
        const errorSymbol = symbolOf('error', error);
        if (!errors.has(errorSymbol.name)) errors.set(errorSymbol.name, errorSymbol);
      }
    } else {
      const iface = symbolOf('interface', declaration);
      nameType(iface);
      for (const method of declaration.methods) {
        const methodSymbol = symbolOf('method', method, iface);
        for (const parameter of method.parameters) referToType(parameter.type, symbolOf('parameter', parameter, methodSymbol));
        referToType(method.returnType, methodSymbol);
        for (const raised of method.raises) refer('raises', raised, methodSymbol);
      }
    }
  }

  const references = pending.map((reference): SymbolReference => {
    const symbol = reference.kind === 'raises' ? errors.get(reference.name) : types.get(reference.name);
    return symbol ? { ...reference, symbol } : reference;
  });
  return { file, declarations, types, errors, references };
}
