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

/** A range of source text: from `start` up to (not including) `end`. */
export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
}

/** The range of source text a node was parsed from, and the file it is in. */
export interface SourceSpan extends SourceRange {
  file: string;
}

/** An identifier together with where it was written (used wherever a name is referenced). */
export interface Name {
  text: string;
  span: SourceSpan;
}

/**
 * The built-in types of the IDL: the four scalars (reserved words), and the contextual ones
 * (`timestamp`, `date`, `bytes`, `json`: not reserved, see `CONTEXTUAL_BUILT_IN_TYPES`).
 */
export type BuiltInTypeName = 'string' | 'int' | 'float' | 'bool' | ContextualBuiltInTypeName;

/** Built-in types whose names are not reserved: a type declared under one of them wins where it is in scope. */
export type ContextualBuiltInTypeName = 'timestamp' | 'date' | 'bytes' | 'json';

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
  /** Comments around the node that are not its doc comment (kept only for the formatter). */
  comments?: Comments;
}

/**
 * Consecutive `//` lines, each without the `//`, at most one following space and trailing
 * whitespace (like a doc comment line).
 */
export type CommentGroup = string[];

/**
 * The comments near a node that are not its doc comment. Only the formatter reads them: the checker,
 * the IDL JSON, code generation and OpenAPI see doc comments only. Absent keys mean "none".
 */
export interface Comments {
  /**
   * Comment groups on their own lines above the node (above its doc comment). Each group was
   * followed by a blank line, which is why it is not the doc comment.
   */
  leading?: CommentGroup[];
  /** The comment after the node on its (last) line; for a block declaration, after the closing `}`. */
  trailing?: string;
  /** Block declarations: the comment after `{` on the header line. */
  header?: string;
  /**
   * Comment groups after the last item of a block, before its `}` (or, on an `IdlFile`, after the
   * last declaration; on a method, after its last parameter, before `)`).
   */
  end?: CommentGroup[];
}

export interface NamespaceDecl extends Documented {
  kind: 'namespace';
  name: Name;
  span: SourceSpan;
}

/**
 * `import "relative/path.idl"`: the file's declarations join the importer's (docs/idl.md, "Several
 * files"). The path is relative to the importing file.
 */
export interface ImportDecl extends Documented {
  kind: 'import';
  /** The quoted path, without its quotes. */
  path: string;
  /** Where the quoted path is written (the place an unreadable file is reported at). */
  pathSpan: SourceSpan;
  span: SourceSpan;
}

/**
 * Where a declaration comes from when a file imports others: the namespace of the imported file that
 * declares it. Absent on the root file's declarations (and those of an imported file without a
 * namespace, merged into its importer): their names are written plainly. Present, the declaration's
 * name is the qualified `<namespace>.<Name>` and its references are resolved the same way.
 */
export interface Imported {
  namespace?: string;
}

export interface EnumValue extends Documented {
  name: Name;
  span: SourceSpan;
}

export interface EnumDecl extends Documented, Imported {
  kind: 'enum';
  name: Name;
  values: EnumValue[];
  span: SourceSpan;
}

/**
 * The value of a `name=value` attribute: a JSON literal (`default=[1, 2]`, `min=-1.5`), or a quoted
 * text read with the IDL's string escapes (`pattern="^\\d+$"`, `format="email"`).
 */
export interface AttributeValue {
  /** The value as read: a number, a string, or (for `default`) any JSON value. */
  value: unknown;
  /** The source text of the value. */
  text: string;
  span: SourceSpan;
}

/**
 * One item of an attribute list after a type (docs/idl.md, "Attributes"): the flag `optional`, or
 * `name=value` such as `min=1`, `default=30`, `pattern="^[a-z]+$"`. The parser reads any name; the
 * checker judges names, values and where they apply.
 */
export interface Attribute {
  name: Name;
  /** Absent for a flag (`optional`). */
  value?: AttributeValue;
  span: SourceSpan;
}

/**
 * What may follow the type of a field, a parameter or a method's return: `[optional]`, or a list
 * such as `[optional, default=30, max=100]`. `optional` mirrors the `optional` flag of the list.
 */
export interface Attributed {
  /**
   * The attribute list as written, every item (`optional` too), when it holds more than `optional`:
   * absent for no list and for a plain `[optional]`, so trees without new attributes stay as they were.
   */
  attributes?: Attribute[];
}

export interface Field extends Documented, Attributed {
  name: Name;
  type: TypeRef;
  optional: boolean;
  span: SourceSpan;
}

export interface StructDecl extends Documented, Imported {
  kind: 'struct';
  name: Name;
  extends?: Name;
  /** The struct's own fields, without inherited ones. */
  fields: Field[];
  span: SourceSpan;
}

export interface ErrorDecl extends Documented, Imported {
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

export interface Parameter extends Attributed {
  name: Name;
  /** `[optional]`: callers may leave it out (docs/idl.md, "Optional parameters"). Absent means required. */
  optional?: boolean;
  /**
   * Comments inside a multi-line parameter list: `leading` are the `//` lines above the parameter
   * (as one group), `trailing` the comment at the end of its line.
   */
  comments?: Comments;
  type: TypeRef;
  span: SourceSpan;
}

export interface Method extends Documented {
  name: Name;
  parameters: Parameter[];
  returnType: TypeRef;
  returnOptional: boolean;
  /** The return's attribute list (as `Attributed.attributes`): constraints on the result. */
  returnAttributes?: Attribute[];
  raises: Name[];
  /**
   * `stream T`: the method sends any number of T over time, then ends (docs/idl.md, "Streams");
   * `returnType` is then the type of each item. The span of the word `stream`; absent for a plain method.
   */
  stream?: SourceSpan;
  span: SourceSpan;
}

export interface InterfaceDecl extends Documented, Imported {
  kind: 'interface';
  name: Name;
  methods: Method[];
  span: SourceSpan;
}

/** One `name=value` item of a union's attribute list (`[discriminator=kind]`). */
export interface UnionAttribute {
  name: Name;
  value: Name;
  span: SourceSpan;
}

/** One variant line of a union: `<tag> <Struct>`. */
export interface UnionVariant extends Documented {
  /** The value of the discriminator that selects this variant on the wire. */
  tag: Name;
  /** The struct the variant carries (a reference, resolved like any type name). */
  type: Name;
  span: SourceSpan;
}

/**
 * `union Payment [discriminator=kind] { card Card ... }`: a discriminated union of structs
 * (docs/idl.md, "Unions"). On the wire a variant is its struct's fields plus the discriminator.
 */
export interface UnionDecl extends Documented, Imported {
  kind: 'union';
  name: Name;
  /** The attribute list as written (absent when there is none); the checker reads `discriminator` from it. */
  attributes?: UnionAttribute[];
  variants: UnionVariant[];
  span: SourceSpan;
}

/** The discriminator of a union when its attribute list does not name one. */
export const DEFAULT_DISCRIMINATOR = 'kind';

/** The discriminator property of a union: its `discriminator` attribute, or `kind`. */
export function discriminatorOf(union: UnionDecl): string {
  return union.attributes?.find((attribute) => attribute.name.text === 'discriminator')?.value.text ?? DEFAULT_DISCRIMINATOR;
}

export type Declaration = EnumDecl | StructDecl | UnionDecl | ErrorsBlock | InterfaceDecl;

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
  /** The `import` lines, in source order (wherever they are written at top level). Absent when none. */
  imports?: ImportDecl[];
  declarations: Declaration[];
  /**
   * Comment lines on their own line that are not doc comments (followed by a blank line, or at the
   * end of a block or file), with positions. Trailing comments after an item on the same line are
   * not listed. The formatter places these through the nodes' `comments`. Absent when there are none.
   */
  detachedComments?: DetachedComment[];
  /** Comments after the last declaration (`end`). */
  comments?: Comments;
}
