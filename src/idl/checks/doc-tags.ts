/**
 * Doc tags (docs/idl.md, "Doc tags"): `invalid-example` for an `@example` that is not one JSON value
 * of the item's type, `misplaced-doc-tag` for a tag on an item it says nothing about (`@readonly`
 * off a method, `@example` on an interface, an error or an enum value), `duplicate-doc-tag` for a
 * second `@deprecated` or `@readonly`, `malformed-doc-tag` for text after `@readonly`; and the note
 * `unknown-doc-tag` for a line that starts with another `@word` (it stays description text).
 *
 * Each is located at the tag in its comment line, read from the file's text: the doc comment is the
 * lines directly above its item (one item per line), so line `i` of a comment of `n` lines above an
 * item on line `L` is line `L - n + i`.
 */
import type { Documented, EnumDecl, SourceSpan, StructDecl, TypeRef } from '../ast.js';
import type { Diagnostic } from '../diagnostic.js';
import { type DocTagLine, type DocTagName, docCommentParts, parseExample } from '../doc-tags.js';
import type { CheckContext } from './context.js';
import { declarationValueProblem, type ValueProblem, valueProblem } from './example-values.js';

/** What an item is, for messages and for where each tag is allowed. */
type ItemKind = 'interface' | 'method' | 'struct' | 'field' | 'enum' | 'enum value' | 'error';

/** The items each tag may be written on. */
const ALLOWED: Record<DocTagName, readonly ItemKind[]> = {
  deprecated: ['interface', 'method', 'struct', 'field', 'enum', 'enum value', 'error'],
  readonly: ['method'],
  example: ['method', 'struct', 'field', 'enum'],
};

/** What an `@example` must be a value of. */
type ExampleTarget = { declaration: EnumDecl | StructDecl } | { type: TypeRef; optional: boolean };

export function checkDocTags(context: CheckContext): void {
  const visit = (node: Documented & { span: SourceSpan }, kind: ItemKind, target?: ExampleTarget) => {
    if (node.comment?.includes('@')) checkItem(context, node, kind, target);
  };
  for (const iface of context.interfaces) {
    visit(iface, 'interface');
    for (const method of iface.methods) visit(method, 'method', { type: method.returnType, optional: method.returnOptional });
  }
  for (const struct of context.structs) {
    visit(struct, 'struct', { declaration: struct });
    for (const field of struct.fields) visit(field, 'field', { type: field.type, optional: field.optional });
  }
  for (const enumDecl of context.enums) {
    visit(enumDecl, 'enum', { declaration: enumDecl });
    for (const value of enumDecl.values) visit(value, 'enum value');
  }
  for (const error of context.errors) visit(error, 'error');
}

function checkItem(
  context: CheckContext,
  node: Documented & { span: SourceSpan },
  kind: ItemKind,
  target: ExampleTarget | undefined,
): void {
  const comment = node.comment!;
  const parts = docCommentParts(comment);
  const locate = tagLocator(context, node, comment.split('\n').length);
  for (const unknown of parts.unknown) {
    context.report(
      diagnosticAt(
        'note',
        'unknown-doc-tag',
        `unknown doc tag '@${unknown.word}': the line stays description text (the tags are @deprecated, @readonly and @example)`,
        locate(unknown.line, unknown.column, unknown.word.length + 1),
      ),
    );
  }
  const seen = new Set<DocTagName>();
  for (const tag of parts.tags) {
    const at = locate(tag.line, tag.column, tag.name.length + 1);
    if (!ALLOWED[tag.name].includes(kind)) {
      const where = ALLOWED[tag.name].map((k) => `${k}s`).join(', ');
      context.report(
        diagnosticAt('error', 'misplaced-doc-tag', `@${tag.name} does not apply to ${articled(kind)}: it goes on ${where}`, at),
      );
      continue;
    }
    if (tag.name !== 'example') {
      if (seen.has(tag.name)) {
        context.report(diagnosticAt('error', 'duplicate-doc-tag', `@${tag.name} is written twice in this doc comment`, at));
        continue;
      }
      seen.add(tag.name);
    }
    if (tag.name === 'readonly' && tag.argument !== '') {
      context.report(
        diagnosticAt(
          'error',
          'malformed-doc-tag',
          '@readonly takes no text: write the explanation on a line of its own',
          locate(tag.line, tag.argumentColumn, tag.argument.length),
        ),
      );
    }
    if (tag.name === 'example' && target) checkExample(context, tag, target, kind, locate);
  }
}

function checkExample(
  context: CheckContext,
  tag: DocTagLine,
  target: ExampleTarget,
  kind: ItemKind,
  locate: (line: number, column: number, length: number) => SourceSpan,
): void {
  const parsed = parseExample(tag.argument);
  if (!parsed.ok) {
    const at =
      tag.argument === '' ? locate(tag.line, tag.column, tag.name.length + 1) : locate(tag.line, tag.argumentColumn + parsed.index, 1);
    context.report(diagnosticAt('error', 'invalid-example', `@example ${parsed.message}`, at));
    return;
  }
  const known = { types: context.types, parentOf: context.parentOf, unions: context.unionsByName };
  const problem: ValueProblem | undefined =
    'declaration' in target
      ? declarationValueProblem(parsed.value, target.declaration, known)
      : valueProblem(parsed.value, target.type, target.optional, known);
  if (!problem) return;
  const of = kind === 'method' ? "the method's result" : `this ${kind}`;
  context.report(
    diagnosticAt(
      'error',
      'invalid-example',
      `@example is not a value of ${of}: at ${problem.path}: ${problem.message}`,
      locate(tag.line, tag.argumentColumn, tag.argument.length),
    ),
  );
}

/**
 * Where line `line`, column `column` (0-based, in the comment's text) of the doc comment of `node` is
 * in its file, `length` units long. Falls back to the item's own span when the file's text is not at
 * hand or does not hold the comment there (a tree built by code).
 */
function tagLocator(context: CheckContext, node: Documented & { span: SourceSpan }, lineCount: number) {
  const source = context.sourceOf(node.span.file);
  // The offsets where the comment's lines start, found once (walking up from the item's line), so
  // that locating every tag of a long comment stays linear in its length.
  let lineStarts: number[] | undefined;
  const startOfLine = (line: number): number | undefined => {
    if (source === undefined) return undefined;
    if (lineStarts === undefined) {
      lineStarts = [];
      let lineStart = source.lastIndexOf('\n', node.span.start.offset - 1) + 1;
      for (let i = 0; i < lineCount && lineStart > 0; i++) {
        lineStart = source.lastIndexOf('\n', lineStart - 2) + 1;
        lineStarts.push(lineStart);
      }
      lineStarts.reverse();
    }
    return lineStarts.length === lineCount ? lineStarts[line] : undefined;
  };
  return (line: number, column: number, length: number): SourceSpan => {
    const fallback = node.span;
    const lineStart = startOfLine(line);
    if (source === undefined || lineStart === undefined) return fallback;
    const lineEnd = source.indexOf('\n', lineStart);
    const text = source.slice(lineStart, lineEnd === -1 ? source.length : lineEnd);
    const slashes = text.indexOf('//');
    if (slashes === -1 || text.slice(0, slashes).trim() !== '') return fallback;
    const textStart = slashes + (text.charCodeAt(slashes + 2) === 32 ? 3 : 2);
    const startColumn = textStart + column + 1;
    const sourceLine = node.span.start.line - lineCount + line;
    const start = { offset: lineStart + textStart + column, line: sourceLine, column: startColumn };
    const end = { offset: start.offset + Math.max(length, 1), line: sourceLine, column: startColumn + Math.max(length, 1) };
    return { file: node.span.file, start, end };
  };
}

function diagnosticAt(severity: Diagnostic['severity'], code: string, message: string, span: SourceSpan): Diagnostic {
  return {
    severity,
    code,
    message,
    file: span.file,
    line: span.start.line,
    column: span.start.column,
    length: Math.max(1, span.end.line === span.start.line ? span.end.column - span.start.column : 1),
    range: { start: { ...span.start }, end: { ...span.end } },
  };
}

function articled(kind: ItemKind): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}
