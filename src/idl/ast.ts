/**
 * The syntax tree of one IDL file, as the parser produces it.
 *
 * Every node keeps where it came from (`span`), so the checker, the generators and the OpenAPI
 * converter can point users at the exact place in the source. Declarations stay in source order;
 * the formatter prints them back in that order.
 */

/** A position in a source file. `line` and `column` are 1-based; `offset` is 0-based (UTF-16 units). */
export interface SourcePosition {
  offset: number;
  line: number;
  column: number;
}

/** The range of source text a node was parsed from. */
export interface SourceSpan {
  file: string;
  start: SourcePosition;
  end: SourcePosition;
}

/** An identifier together with where it was written (used wherever a name is referenced). */
export interface Name {
  text: string;
  span: SourceSpan;
}

/** The four built-in scalar types of the IDL. */
export type BuiltInTypeName = 'string' | 'int' | 'float' | 'bool';

export const BUILT_IN_TYPE_NAMES: readonly BuiltInTypeName[] = ['string', 'int', 'float', 'bool'];

/** A type expression: `string`, `[]T`, `map[string]T` or the name of an enum or struct. */
export type TypeRef =
  | { kind: 'builtIn'; name: BuiltInTypeName; span: SourceSpan }
  | { kind: 'array'; element: TypeRef; span: SourceSpan }
  | { kind: 'map'; value: TypeRef; span: SourceSpan }
  | { kind: 'named'; name: string; span: SourceSpan };

/**
 * The doc comment of a node: the `//` lines directly above it, each without the `//` and at most one
 * following space, joined with `\n`. Absent when the node has no comment.
 */
export interface Documented {
  comment?: string;
}

export interface NamespaceDecl extends Documented {
  kind: 'namespace';
  name: Name;
  span: SourceSpan;
}

export interface EnumValue extends Documented {
  name: Name;
  span: SourceSpan;
}

export interface EnumDecl extends Documented {
  kind: 'enum';
  name: Name;
  values: EnumValue[];
  span: SourceSpan;
}

export interface Field extends Documented {
  name: Name;
  type: TypeRef;
  optional: boolean;
  span: SourceSpan;
}

export interface StructDecl extends Documented {
  kind: 'struct';
  name: Name;
  extends?: Name;
  /** The struct's own fields, without inherited ones. */
  fields: Field[];
  span: SourceSpan;
}

export interface ErrorDecl extends Documented {
  code: number;
  /** Span of the code literal, for duplicate-code diagnostics. */
  codeSpan: SourceSpan;
  name: Name;
  /** The quoted message with escapes resolved. */
  message: string;
  span: SourceSpan;
}

/** One `errors { ... }` block. A file may hold several; their errors share one name and code space. */
export interface ErrorsBlock extends Documented {
  kind: 'errors';
  errors: ErrorDecl[];
  span: SourceSpan;
}

export interface Parameter {
  name: Name;
  type: TypeRef;
  span: SourceSpan;
}

export interface Method extends Documented {
  name: Name;
  parameters: Parameter[];
  returnType: TypeRef;
  returnOptional: boolean;
  raises: Name[];
  span: SourceSpan;
}

export interface InterfaceDecl extends Documented {
  kind: 'interface';
  name: Name;
  methods: Method[];
  span: SourceSpan;
}

export type Declaration = EnumDecl | StructDecl | ErrorsBlock | InterfaceDecl;

/** A `//` comment the tree does not attach to any node (trailing, detached by a blank line, ...). */
export interface DetachedComment {
  text: string;
  span: SourceSpan;
}

/** A parsed IDL file. `namespace` is optional here; the checker reports it when missing. */
export interface IdlFile {
  fileName: string;
  /** The source text the file was parsed from (used for code frames). */
  source: string;
  namespace?: NamespaceDecl;
  declarations: Declaration[];
  /**
   * Comment lines that are not doc comments (followed by a blank line, or at the end of a block).
   * The formatter cannot place them, so `idlrpc -format -w` refuses to drop them. Trailing comments
   * after an item on the same line are not recorded. Absent when there are none.
   */
  detachedComments?: DetachedComment[];
}
