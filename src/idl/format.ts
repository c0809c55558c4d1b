/**
 * The IDL printer: a syntax tree back to canonical IDL text.
 *
 * Canonical text: 4-space indentation; in a struct the field names, types and `[optional]` markers
 * line up in columns (the name column is at least 13 wide, like the reference checkout.idl); in an
 * errors block codes, names and messages line up; a blank line between declarations and between
 * methods; doc comments as `// ` lines above their item; declarations in the order of the tree;
 * `\n` line endings and a final newline. Spans are not read, so trees built by code (with
 * `syntheticSpan`) print the same way as parsed ones.
 */
import type {
  EnumDecl,
  ErrorsBlock,
  IdlFile,
  InterfaceDecl,
  Method,
  Name,
  SourceSpan,
  StructDecl,
  TypeRef,
} from './ast.js';

const INDENT = '    ';
/** Struct field names are padded at least this wide (with the two separating spaces). */
const MIN_FIELD_NAME_COLUMN = 13;

/** Prints a file as canonical IDL text. `parseIdl(printIdl(f))` gives `f` back, apart from spans. */
export function printIdl(file: IdlFile): string {
  const blocks: string[] = [];
  if (file.namespace) {
    blocks.push(commentLines(file.namespace.comment, '') + `namespace ${file.namespace.name.text}\n`);
  }
  for (const declaration of file.declarations) {
    switch (declaration.kind) {
      case 'enum':
        blocks.push(printEnum(declaration));
        break;
      case 'struct':
        blocks.push(printStruct(declaration));
        break;
      case 'errors':
        blocks.push(printErrors(declaration));
        break;
      case 'interface':
        blocks.push(printInterface(declaration));
        break;
    }
  }
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

/** A message as an IDL string literal. Line breaks, which the IDL cannot hold, become spaces. */
export function quoteMessage(message: string): string {
  return `"${message.replace(/\r\n|[\r\n]/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function printEnum(decl: EnumDecl): string {
  const values = decl.values.map((value) => commentLines(value.comment, INDENT) + INDENT + value.name.text + '\n');
  return commentLines(decl.comment, '') + `enum ${decl.name.text} {\n${values.join('')}}\n`;
}

function printStruct(decl: StructDecl): string {
  const nameWidth = Math.max(MIN_FIELD_NAME_COLUMN, ...decl.fields.map((f) => f.name.text.length + 2));
  const typeWidth = Math.max(0, ...decl.fields.map((f) => printType(f.type).length + 2));
  const fields = decl.fields.map((field) => {
    const type = printType(field.type);
    const line = field.optional
      ? field.name.text.padEnd(nameWidth) + type.padEnd(typeWidth) + '[optional]'
      : field.name.text.padEnd(nameWidth) + type;
    return commentLines(field.comment, INDENT) + INDENT + line + '\n';
  });
  const parent = decl.extends ? ` extends ${decl.extends.text}` : '';
  return commentLines(decl.comment, '') + `struct ${decl.name.text}${parent} {\n${fields.join('')}}\n`;
}

function printErrors(block: ErrorsBlock): string {
  const codeWidth = Math.max(0, ...block.errors.map((e) => String(e.code).length + 1));
  const nameWidth = Math.max(0, ...block.errors.map((e) => e.name.text.length + 1));
  const errors = block.errors.map(
    (error) =>
      commentLines(error.comment, INDENT) +
      INDENT +
      String(error.code).padEnd(codeWidth) +
      error.name.text.padEnd(nameWidth) +
      quoteMessage(error.message) +
      '\n',
  );
  return commentLines(block.comment, '') + `errors {\n${errors.join('')}}\n`;
}

function printInterface(decl: InterfaceDecl): string {
  const methods = decl.methods.map((method) => commentLines(method.comment, INDENT) + INDENT + printMethod(method) + '\n');
  return commentLines(decl.comment, '') + `interface ${decl.name.text} {\n${methods.join('\n')}}\n`;
}

function printMethod(method: Method): string {
  const parameters = method.parameters.map((p) => `${p.name.text} ${printType(p.type)}`).join(', ');
  const optional = method.returnOptional ? ' [optional]' : '';
  const raises = method.raises.length > 0 ? ` raises(${method.raises.map((r) => r.text).join(', ')})` : '';
  return `${method.name.text}(${parameters}) ${printType(method.returnType)}${optional}${raises}`;
}

/** A doc comment as `// ` lines at `indent`; nothing when there is no comment. */
function commentLines(comment: string | undefined, indent: string): string {
  if (comment === undefined) return '';
  return comment
    .split(/\r\n|[\r\n]/)
    .map((line) => line.trimEnd())
    .map((line) => (line === '' ? `${indent}//\n` : `${indent}// ${line}\n`))
    .join('');
}
