/**
 * OpenAPI -> IDL for doc tags (docs/openapi.md, "Deprecations and examples"): `deprecated: true`
 * becomes an `@deprecated` line, `x-readonly: true` on an operation `@readonly`, and an `example`
 * (or the first of `examples`) `@example` — kept only when it is a value of the IDL type it ends up
 * on (`dropInvalidExamples`, once every declaration is converted).
 */
import type { Attribute, Documented, IdlFile, TypeRef } from '../idl/ast.js';
import { constraintsOf } from '../idl/attributes.js';
import { valueOutsideConstraints } from '../idl/checks/attribute-values.js';
import { valueTypesOf } from './attributes-in.js';
import { declarationValueProblem, valueProblem } from '../idl/checks/example-values.js';
import { docCommentParts, parseExample } from '../idl/doc-tags.js';
import { EXTENSION } from './error-binding.js';
import type { WarningSink } from './warnings.js';

/** What the tag lines of an item come from. */
export interface TagSources {
  deprecated?: unknown;
  readonly?: unknown;
  /** The example value, `undefined` when there is none. */
  example?: unknown;
}

/**
 * `comment` with the tag lines its OpenAPI item asks for, each added only when the comment lacks
 * that tag (a document this project wrote carries the exact comment, tags included, in `x-idl-comment`).
 */
export function withDocTags(comment: string | undefined, sources: TagSources): string | undefined {
  const present = new Set(docCommentParts(comment).tags.map((t) => t.name));
  const lines: string[] = [];
  if (sources.deprecated === true && !present.has('deprecated')) lines.push('@deprecated');
  if (sources.readonly === true && !present.has('readonly')) lines.push('@readonly');
  if (sources.example !== undefined && !present.has('example')) {
    const json = JSON.stringify(sources.example);
    if (json !== undefined) lines.push(`@example ${json}`);
  }
  if (lines.length === 0) return comment;
  return comment === undefined ? lines.join('\n') : `${comment}\n${lines.join('\n')}`;
}

/** The example of a schema: `examples[0]` (JSON Schema, 3.1), else `example` (3.0). */
export function schemaExample(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  if (Array.isArray(record.examples) && record.examples.length > 0) return record.examples[0];
  return record.example;
}

/** The example of a media type: `example`, else the `value` of the first of `examples`. */
export function mediaExample(media: unknown): unknown {
  if (typeof media !== 'object' || media === null) return undefined;
  const record = media as Record<string, unknown>;
  if (record.example !== undefined) return record.example;
  if (typeof record.examples === 'object' && record.examples !== null) {
    const first = Object.values(record.examples)[0];
    if (typeof first === 'object' && first !== null) return (first as Record<string, unknown>).value;
  }
  return undefined;
}

/** The values an enum schema lists in `x-deprecated`. */
export function deprecatedEnumValues(schema: Record<string, unknown>): Set<unknown> {
  const list = schema[EXTENSION.deprecatedValues];
  return new Set(Array.isArray(list) ? list : []);
}

/**
 * Removes each `@example` line of the converted file that is not a value of its item's type, with a
 * warning: OpenAPI documents often carry examples their own schemas refuse, and the IDL checker
 * refuses those.
 */
export function dropInvalidExamples(file: IdlFile, sink: WarningSink, pointerOf: (node: object) => string): void {
  const known = valueTypesOf(file);
  const keepValid = (node: Documented, what: string, problemOf: (value: unknown) => string | undefined) => {
    if (!node.comment?.includes('@example')) return;
    const lines = node.comment.split('\n');
    const dropped = new Set(
      docCommentParts(node.comment)
        .tags.filter((tag) => tag.name === 'example')
        .filter((tag) => {
          const parsed = parseExample(tag.argument);
          const problem = parsed.ok ? problemOf(parsed.value) : parsed.message;
          if (problem !== undefined) sink.warn(pointerOf(node), `the example of ${what} is dropped: ${problem}`);
          return problem !== undefined;
        })
        .map((tag) => tag.line),
    );
    if (dropped.size === 0) return;
    const kept = lines.filter((_, i) => !dropped.has(i));
    if (kept.length > 0) node.comment = kept.join('\n');
    else delete node.comment;
  };
  // An example must meet the item's constraints too: validators reading the written document refuse one that breaks them.
  const ofType = (type: TypeRef, optional: boolean, attributes?: readonly Attribute[]) => (value: unknown) => {
    const constraints = new Map(Object.entries(constraintsOf(attributes) ?? {}));
    const problem =
      valueProblem(value, type, optional, known) ?? (value === null ? undefined : valueOutsideConstraints(value, type, constraints));
    return problem && `at ${problem.path}: ${problem.message}`;
  };
  for (const d of file.declarations) {
    if (d.kind === 'struct' || d.kind === 'enum') {
      keepValid(d, `${d.name.text}`, (value) => {
        const problem = declarationValueProblem(value, d, known);
        return problem && `at ${problem.path}: ${problem.message}`;
      });
    }
    if (d.kind === 'union') {
      const self: TypeRef = { kind: 'named', name: d.name.text, span: d.span };
      keepValid(d, d.name.text, ofType(self, false));
    }
    if (d.kind === 'struct')
      for (const f of d.fields) keepValid(f, `${d.name.text}.${f.name.text}`, ofType(f.type, f.optional, f.attributes));
    if (d.kind === 'interface')
      for (const m of d.methods) keepValid(m, `${d.name.text}.${m.name.text}`, ofType(m.returnType, m.returnOptional, m.returnAttributes));
  }
}
