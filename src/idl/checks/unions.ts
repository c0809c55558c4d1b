/**
 * Unions (docs/idl.md, "Unions"): `union-attribute` (an attribute other than `discriminator`, or one
 * given twice), `union-variant-not-struct` (a variant whose type is an enum, a union, an interface or
 * nothing declared), `duplicate-union-tag`, `duplicate-union-variant` (a struct named by two
 * variants: on the way back from the wire, and from OpenAPI, a struct must name one variant) and
 * `union-discriminator-field` (the discriminator is also a field of a variant, inherited ones
 * included: the wire object could not hold both).
 */
import { discriminatorOf, type StructDecl, type UnionDecl } from '../ast.js';
import { errorAt, relatedLocation } from '../diagnostic.js';
import { IDENTIFIER_PATTERN } from '../names.js';
import { article, type CheckContext } from './context.js';

/** The attributes a union's list may hold. */
const UNION_ATTRIBUTES: ReadonlySet<string> = new Set(['discriminator']);

export function checkUnions(context: CheckContext): void {
  for (const union of context.unions) {
    checkAttributes(context, union);
    checkVariants(context, union);
  }
}

function checkAttributes({ report }: CheckContext, union: UnionDecl): void {
  const seen = new Set<string>();
  for (const attribute of union.attributes ?? []) {
    const name = attribute.name.text;
    if (!UNION_ATTRIBUTES.has(name)) {
      report(
        errorAt(
          'union-attribute',
          `unknown attribute '${name}' on union '${union.name.text}': a union takes only discriminator=<name>`,
          attribute.name.span,
        ),
      );
    } else if (seen.has(name)) {
      report(errorAt('union-attribute', `attribute '${name}' is given twice on union '${union.name.text}'`, attribute.name.span));
    } else if (!IDENTIFIER_PATTERN.test(attribute.value.text)) {
      report(
        errorAt(
          'union-attribute',
          `the discriminator of union '${union.name.text}' must be a field name (letters, digits and underscores, starting with a letter), not '${attribute.value.text}'`,
          attribute.value.span,
        ),
      );
    }
    seen.add(name);
  }
}

function checkVariants(context: CheckContext, union: UnionDecl): void {
  const { report } = context;
  const discriminator = discriminatorOf(union);
  const tags = new Map<string, UnionDecl['variants'][number]>();
  const structs = new Map<string, UnionDecl['variants'][number]>();
  for (const variant of union.variants) {
    const tag = variant.tag.text;
    const firstTag = tags.get(tag);
    if (firstTag) {
      report(
        errorAt(
          'duplicate-union-tag',
          `tag '${tag}' is already used in union '${union.name.text}' on line ${firstTag.tag.span.start.line}`,
          variant.tag.span,
          {
            related: [relatedLocation(`tag '${tag}' is first used here`, firstTag.tag.span)],
          },
        ),
      );
    } else tags.set(tag, variant);

    const struct = variantStruct(context, union, variant);
    if (!struct) continue;
    const firstStruct = structs.get(struct.name.text);
    if (firstStruct) {
      report(
        errorAt(
          'duplicate-union-variant',
          `struct '${struct.name.text}' is already the variant '${firstStruct.tag.text}' of union '${union.name.text}': each struct may be one variant only`,
          variant.type.span,
          { related: [relatedLocation(`'${struct.name.text}' is first a variant here`, firstStruct.type.span)] },
        ),
      );
    } else structs.set(struct.name.text, variant);
    const clash = fieldNamed(context, struct, discriminator);
    if (clash) {
      const where = clash === struct ? '' : ` (inherited from '${clash.name.text}')`;
      report(
        errorAt(
          'union-discriminator-field',
          `the discriminator '${discriminator}' of union '${union.name.text}' is also a field of its variant '${struct.name.text}'${where}: rename the field or choose another discriminator`,
          variant.type.span,
        ),
      );
    }
  }
}

/** The struct a variant names, or undefined after reporting why it names none. */
function variantStruct(
  { types, unionsByName, interfacesByName, suggestStruct, report }: CheckContext,
  union: UnionDecl,
  variant: UnionDecl['variants'][number],
): StructDecl | undefined {
  const name = variant.type.text;
  const type = types.get(name);
  if (type?.kind === 'struct') return type;
  const kind = type?.kind ?? (unionsByName.has(name) ? 'union' : interfacesByName.has(name) ? 'interface' : undefined);
  const message =
    kind === undefined
      ? `unknown struct '${name}' in union '${union.name.text}'${suggestStruct(name)}`
      : `'${name}' is ${article(kind)}: the variants of union '${union.name.text}' must be structs`;
  report(errorAt('union-variant-not-struct', message, variant.type.span));
  return undefined;
}

/** The struct (itself or an ancestor) that declares a field named `name`; walks the `extends` chain once. */
function fieldNamed({ parentOf }: CheckContext, struct: StructDecl, name: string): StructDecl | undefined {
  const visited = new Set<StructDecl>();
  for (let current: StructDecl | undefined = struct; current && !visited.has(current); current = parentOf.get(current)) {
    visited.add(current);
    if (current.fields.some((field) => field.name.text === name)) return current;
  }
  return undefined;
}
