/**
 * The IDL printer: a syntax tree back to canonical IDL text.
 *
 * Canonical text: 4-space indentation; in a struct the field names, types and `[optional]` markers
 * line up in columns (the name column is at least 13 wide, like the reference checkout.idl); in an
 * errors block codes, names and messages line up; a blank line between declarations and between
 * methods; doc comments as `// ` lines above their item; declarations in the order of the tree;
 * `\n` line endings and a final newline. Spans are not read, so trees built by code (with
 * `syntheticSpan`) print the same way as parsed ones.
 *
 * Every other comment the parser recorded (`comments` on the nodes) is printed too: leading groups
 * above the item's doc comment, each followed by a blank line so it stays a non-doc comment;
 * trailing comments at the end of their line (in enum, struct and errors blocks aligned one space
 * after the longest commented line); end-of-block and end-of-file groups before the `}` or at the
 * end. A method with comments in its parameter list is printed with one parameter per line.
 */
import type {
  CommentGroup,
  Documented,
  EnumDecl,
  ErrorsBlock,
  IdlFile,
  InterfaceDecl,
  Method,
  Name,
  Parameter,
  SourceSpan,
  StructDecl,
  TypeRef,
  UnionDecl,
} from './ast.js';
import { printAttributeList } from './attributes.js';
import { quoteMessage } from './quoted-text.js';

export { quoteMessage };

const INDENT = '    ';
/** Struct field names are padded at least this wide (with the two separating spaces). */
const MIN_FIELD_NAME_COLUMN = 13;

/** Prints a file as canonical IDL text. `parseIdl(printIdl(f))` gives `f` back, apart from spans. */
export function printIdl(file: IdlFile): string {
  const blocks: string[] = [];
  if (file.namespace) {
    const namespace = file.namespace;
    blocks.push(leadingLines(namespace, '') + withTrailing(`namespace ${namespace.name.text}`, namespace.comments?.trailing) + '\n');
  }
  // Imports go together right after the namespace, wherever they were written.
  const imports = file.imports ?? [];
  if (imports.length > 0) {
    blocks.push(
      imports
        .map(
          (declaration) =>
            leadingLines(declaration, '') + withTrailing(`import ${quoteMessage(declaration.path)}`, declaration.comments?.trailing),
        )
        .join('\n') + '\n',
    );
  }
  for (const declaration of file.declarations) {
    switch (declaration.kind) {
      case 'enum':
        blocks.push(printEnum(declaration));
        break;
      case 'struct':
        blocks.push(printStruct(declaration));
        break;
      case 'union':
        blocks.push(printUnion(declaration));
        break;
      case 'errors':
        blocks.push(printErrors(declaration));
        break;
      case 'interface':
        blocks.push(printInterface(declaration));
        break;
    }
  }
  const end = file.comments?.end;
  if (hasLines(end)) blocks.push(commentGroupsText(end, ''));
  return blocks.join('\n');
}

/** IDL spelling of a type expression, e.g. `[]map[string]Cart`. */
export function printType(type: TypeRef): string {
  switch (type.kind) {
    case 'builtIn':
      return type.name;
    case 'array':
      return `[]${printType(type.element)}`;
    case 'map':
      return `map[string]${printType(type.value)}`;
    case 'named':
      return type.name;
  }
}

/** A span for nodes built by code rather than parsed (line 1, column 1, empty). */
export function syntheticSpan(fileName: string): SourceSpan {
  const start = { offset: 0, line: 1, column: 1 };
  return { file: fileName, start, end: { ...start } };
}

/** A name for nodes built by code, with a synthetic span. */
export function syntheticName(text: string, fileName: string): Name {
  return { text, span: syntheticSpan(fileName) };
}

function printEnum(decl: EnumDecl): string {
  const lines = decl.values.map((value) => value.name.text);
  const trailing = alignedTrailing(lines, decl.values);
  const values = decl.values.map((value, i) => leadingLines(value, INDENT) + INDENT + trailing[i] + '\n');
  return printBlock(`enum ${decl.name.text}`, decl, values, '');
}

function printStruct(decl: StructDecl): string {
  const nameWidth = widest(decl.fields, (f) => f.name.text.length + 2, MIN_FIELD_NAME_COLUMN);
  const typeWidth = widest(decl.fields, (f) => printType(f.type).length + 2);
  const lines = decl.fields.map((field) => {
    const type = printType(field.type);
    const attributes = printAttributeList(field.attributes, field.optional);
    return attributes ? field.name.text.padEnd(nameWidth) + type.padEnd(typeWidth) + attributes : field.name.text.padEnd(nameWidth) + type;
  });
  const trailing = alignedTrailing(lines, decl.fields);
  const fields = decl.fields.map((field, i) => leadingLines(field, INDENT) + INDENT + trailing[i] + '\n');
  const parent = decl.extends ? ` extends ${decl.extends.text}` : '';
  return printBlock(`struct ${decl.name.text}${parent}`, decl, fields, '');
}

/** `union Payment [discriminator=kind] {`, the variants' structs aligned after their tags; attributes as written. */
function printUnion(decl: UnionDecl): string {
  const tagWidth = widest(decl.variants, (v) => v.tag.text.length + 1);
  const lines = decl.variants.map((variant) => variant.tag.text.padEnd(tagWidth) + variant.type.text);
  const trailing = alignedTrailing(lines, decl.variants);
  const variants = decl.variants.map((variant, i) => leadingLines(variant, INDENT) + INDENT + trailing[i] + '\n');
  const attributes = decl.attributes
    ? ` [${decl.attributes.map((attribute) => `${attribute.name.text}=${attribute.value.text}`).join(', ')}]`
    : '';
  return printBlock(`union ${decl.name.text}${attributes}`, decl, variants, '');
}

function printErrors(block: ErrorsBlock): string {
  const codeWidth = widest(block.errors, (e) => String(e.code).length + 1);
  const nameWidth = widest(block.errors, (e) => e.name.text.length + 1);
  const lines = block.errors.map(
    (error) => String(error.code).padEnd(codeWidth) + error.name.text.padEnd(nameWidth) + quoteMessage(error.message),
  );
  const trailing = alignedTrailing(lines, block.errors);
  const errors = block.errors.map((error, i) => leadingLines(error, INDENT) + INDENT + trailing[i] + '\n');
  return printBlock('errors', block, errors, '');
}

function printInterface(decl: InterfaceDecl): string {
  const methods = decl.methods.map(
    (method) => leadingLines(method, INDENT) + INDENT + withTrailing(printMethod(method), method.comments?.trailing) + '\n',
  );
  return printBlock(`interface ${decl.name.text}`, decl, methods, '\n');
}

/**
 * A block declaration: its leading and doc comments, `header {` (with the header's trailing
 * comment), the printed items joined by `separator`, the comment groups at the end of the block,
 * and `}` with its trailing comment.
 */
function printBlock(header: string, decl: Documented, items: string[], separator: string): string {
  const comments = decl.comments;
  let end = '';
  if (hasLines(comments?.end)) {
    end = (items.length > 0 ? separator : '') + commentGroupsText(comments.end, INDENT);
  }
  return (
    leadingLines(decl, '') +
    withTrailing(`${header} {`, comments?.header) +
    '\n' +
    items.join(separator) +
    end +
    withTrailing('}', comments?.trailing) +
    '\n'
  );
}

/** `name type` and the parameter's attribute list, if any. */
function printParameter(parameter: Parameter): string {
  const attributes = printAttributeList(parameter.attributes, parameter.optional === true);
  return `${parameter.name.text} ${printType(parameter.type)}${attributes ? ` ${attributes}` : ''}`;
}

/**
 * A method on one line, or, when comments sit inside its parameter list, with one parameter per
 * line so that each comment keeps its place.
 */
function printMethod(method: Method): string {
  const returnAttributes = printAttributeList(method.returnAttributes, method.returnOptional);
  const optional = returnAttributes ? ` ${returnAttributes}` : '';
  const raises = method.raises.length > 0 ? ` raises(${method.raises.map((r) => r.text).join(', ')})` : '';
  const result = `${method.stream ? 'stream ' : ''}${printType(method.returnType)}${optional}${raises}`;
  const end = method.comments?.end?.flat() ?? [];
  if (end.length === 0 && method.parameters.every((p) => p.comments === undefined)) {
    const parameters = method.parameters.map(printParameter).join(', ');
    return `${method.name.text}(${parameters}) ${result}`;
  }
  const inner = INDENT + INDENT;
  const parameters = method.parameters.map((p, i) => {
    const comma = i < method.parameters.length - 1 ? ',' : '';
    const leading = commentLines(p.comments?.leading?.flat().join('\n'), inner);
    return leading + inner + withTrailing(`${printParameter(p)}${comma}`, p.comments?.trailing) + '\n';
  });
  const endLines = commentLines(end.length > 0 ? end.join('\n') : undefined, inner);
  return `${method.name.text}(\n${parameters.join('')}${endLines}${INDENT}) ${result}`;
}

/**
 * The item lines of a block with their trailing comments, which start in one column: one space
 * after the longest line that carries a trailing comment.
 */
/**
 * The largest `width(item)`, at least `minimum`. A loop: spreading a block of 200,000 items into
 * `Math.max` overflows the stack.
 */
function widest<T>(items: readonly T[], width: (item: T) => number, minimum = 0): number {
  let widest = minimum;
  for (const item of items) widest = Math.max(widest, width(item));
  return widest;
}

function alignedTrailing(lines: string[], nodes: Documented[]): string[] {
  let column = 0;
  nodes.forEach((node, i) => {
    if (node.comments?.trailing !== undefined) column = Math.max(column, lines[i].length);
  });
  return lines.map((line, i) => {
    const trailing = nodes[i].comments?.trailing;
    return trailing === undefined ? line : withTrailing(line.padEnd(column), trailing);
  });
}

/** `line` followed by ` // comment` when there is a comment. Line breaks in it become spaces. */
function withTrailing(line: string, comment: string | undefined): string {
  if (comment === undefined) return line;
  const text = comment.replace(/\r\n|[\r\n]/g, ' ').trimEnd();
  return text === '' ? `${line} //` : `${line} // ${text}`;
}

/**
 * What goes above an item: its leading comment groups, each followed by a blank line (which keeps
 * them from becoming the doc comment when the text is parsed again), then its doc comment.
 */
function leadingLines(node: Documented, indent: string): string {
  const leading = node.comments?.leading;
  const groups = leading === undefined ? '' : leading.map((group) => (group.length === 0 ? '' : groupLines(group, indent) + '\n')).join('');
  return groups + commentLines(node.comment, indent);
}

/** Whether `groups` holds at least one comment line. */
function hasLines(groups: CommentGroup[] | undefined): groups is CommentGroup[] {
  return groups?.some((group) => group.length > 0) === true;
}

/** Comment groups separated by blank lines (the end of a block or file). */
function commentGroupsText(groups: CommentGroup[], indent: string): string {
  return groups
    .filter((group) => group.length > 0)
    .map((group) => groupLines(group, indent))
    .join('\n');
}

/**
 * A comment group as `// ` lines at `indent`, comment by comment: a group may hold millions of
 * lines, and joining them to split them again held several copies of them at once.
 */
function groupLines(group: CommentGroup, indent: string): string {
  return group.map((comment) => commentLines(comment, indent)).join('');
}

/** Comment lines as `// ` lines at `indent`; nothing when there is no comment. */
function commentLines(comment: string | undefined, indent: string): string {
  if (comment === undefined) return '';
  return comment
    .split(/\r\n|[\r\n]/)
    .map((line) => line.trimEnd())
    .map((line) => (line === '' ? `${indent}//\n` : `${indent}// ${line}\n`))
    .join('');
}

/** A `//` comment found in IDL source text; `text` as in the tree (see `commentText` in the parser). */
export interface SourceComment {
  text: string;
  /** 1-based position of the `//`. */
  line: number;
  column: number;
}

/** Every `//` comment in IDL source text, in order; `//` inside a quoted error message is not one. */
export function sourceComments(source: string): SourceComment[] {
  const comments: SourceComment[] = [];
  forEachSourceComment(source, (text, line, column) => comments.push({ text, line, column }));
  return comments;
}

/**
 * Calls `visit` with every `//` comment in IDL source text, in order, reading the text in place
 * (no array of its lines: a file may have millions).
 */
function forEachSourceComment(source: string, visit: (text: string, line: number, column: number) => void): void {
  let line = 1;
  for (let start = 0; start <= source.length; line++) {
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const column = commentColumn(source, start, end);
    if (column !== undefined) {
      const at = start + column - 1;
      const text = source.slice(at + (source.charCodeAt(at + 2) === 32 ? 3 : 2), end).trimEnd();
      visit(text, line, column);
    }
    if (newline === -1) break;
    start = newline + 1;
  }
}

/** The 1-based column of the `//` starting a comment in `source[start..end)`, outside quotes, if any. */
function commentColumn(source: string, start: number, end: number): number | undefined {
  let quoted = false;
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if (quoted) {
      if (c === 92) i++;
      else if (c === 34) quoted = false;
    } else if (c === 34) {
      quoted = true;
    } else if (c === 47 && source.charCodeAt(i + 1) === 47 && i + 1 < end) {
      return i - start + 1;
    }
  }
  return undefined;
}

/**
 * The comments of `input` that `output` lacks (compared by text, counting repeats): what
 * formatting `input` into `output` would lose. The printer keeps every comment, so this is empty
 * unless it has a bug; `idlrpc -format` checks it anyway rather than lose a comment silently.
 */
export function droppedComments(input: string, output: string): SourceComment[] {
  const available = new Map<string, number>();
  forEachSourceComment(output, (text) => available.set(text, (available.get(text) ?? 0) + 1));
  const dropped: SourceComment[] = [];
  forEachSourceComment(input, (text, line, column) => {
    const count = available.get(text) ?? 0;
    available.set(text, count - 1);
    if (count <= 0) dropped.push({ text, line, column });
  });
  return dropped;
}
