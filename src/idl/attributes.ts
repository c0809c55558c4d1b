/**
 * The attribute list after a type (docs/idl.md, "Attributes"): which names exist, the canonical
 * order the formatter prints them in, and the constraints and default a list says. The parser reads
 * any `name=value`; the checker (checks/attributes.ts) judges them; everything downstream reads the
 * meaning through `constraintsOf` and `defaultOf`.
 */
import type { IdlJsonConstraints } from '../../runtime/idl-json.js';
import type { Attribute } from './ast.js';
import { quoteMessage } from './quoted-text.js';

/** The constraint attributes, each taking a number (or a quoted text for `pattern` and `format`). */
export type ConstraintName = keyof IdlJsonConstraints;

/** Every attribute name in canonical order: how the formatter orders a list, and what completion offers. */
export const ATTRIBUTE_ORDER = [
  'optional',
  'default',
  'min',
  'max',
  'exclusiveMin',
  'exclusiveMax',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'format',
] as const;

export type AttributeName = (typeof ATTRIBUTE_ORDER)[number];

/** The constraints that bound a number (`int` or `float`). */
export const NUMBER_CONSTRAINTS: readonly ConstraintName[] = ['min', 'max', 'exclusiveMin', 'exclusiveMax', 'multipleOf'];
/** The constraints that bound a `string`. */
export const STRING_CONSTRAINTS: readonly ConstraintName[] = ['minLength', 'maxLength', 'pattern', 'format'];
/** The constraints that bound an array itself (not its elements). */
export const ARRAY_CONSTRAINTS: readonly ConstraintName[] = ['minItems', 'maxItems'];
/** The `format` names the validators check; any other name is kept for documentation and OpenAPI. */
export const CHECKED_FORMATS: readonly string[] = ['email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'];

/** Whether `name` is an attribute of the language. */
export function isAttributeName(name: string): name is AttributeName {
  return (ATTRIBUTE_ORDER as readonly string[]).includes(name);
}

/** Whether `name` is one of the constraint attributes (every attribute but `optional` and `default`). */
export function isConstraintName(name: string): name is ConstraintName {
  return isAttributeName(name) && name !== 'optional' && name !== 'default';
}

/** The constraints a list says (the last of a repeated name wins; the checker reports repeats). */
export function constraintsOf(attributes: readonly Attribute[] | undefined): IdlJsonConstraints | undefined {
  let constraints: IdlJsonConstraints | undefined;
  // In canonical order, so the JSON form does not depend on the order the list was written in.
  for (const attribute of canonicalOrder(attributes ?? [])) {
    const name = attribute.name.text;
    if (!isConstraintName(name) || attribute.value === undefined) continue;
    (constraints ??= {})[name] = attribute.value.value as never;
  }
  return constraints;
}

/** The default a list says, boxed so that a `null` default differs from none. */
export function defaultOf(attributes: readonly Attribute[] | undefined): { value: unknown } | undefined {
  const items = attributes?.filter((attribute) => attribute.name.text === 'default' && attribute.value !== undefined) ?? [];
  const item = items[items.length - 1];
  return item?.value && { value: item.value.value };
}

/**
 * The list in canonical form, without its brackets: `optional` first, then the names in
 * `ATTRIBUTE_ORDER`, unknown names last as written; values in their canonical text.
 */
export function printAttributeItems(attributes: readonly Attribute[], optional: boolean): string[] {
  const items = canonicalOrder(attributes.filter((attribute) => attribute.name.text !== 'optional'));
  const printed = items.map((attribute) =>
    attribute.value === undefined ? attribute.name.text : `${attribute.name.text}=${canonicalValueText(attribute)}`,
  );
  return optional ? ['optional', ...printed] : printed;
}

/** The items in `ATTRIBUTE_ORDER`, unknown names last; items of one name keep their written order. */
function canonicalOrder(attributes: readonly Attribute[]): Attribute[] {
  const rank = (attribute: Attribute) => {
    const index = (ATTRIBUTE_ORDER as readonly string[]).indexOf(attribute.name.text);
    return index === -1 ? ATTRIBUTE_ORDER.length : index;
  };
  return attributes
    .map((attribute, i) => ({ attribute, i }))
    .sort((a, b) => rank(a.attribute) - rank(b.attribute) || a.i - b.i)
    .map(({ attribute }) => attribute);
}

/** `[optional]`, `[optional, default=30]` or '' for a field, parameter or return. */
export function printAttributeList(attributes: readonly Attribute[] | undefined, optional: boolean): string {
  const items = attributes ? printAttributeItems(attributes, optional) : optional ? ['optional'] : [];
  return items.length > 0 ? `[${items.join(', ')}]` : '';
}

/**
 * A value's canonical text: a quoted text with the IDL's escapes for `pattern` and `format`, compact
 * JSON for numbers and defaults (so `default = [1,2]` prints `default=[1,2]`).
 */
function canonicalValueText(attribute: Attribute): string {
  const value = attribute.value!.value;
  if (typeof value === 'string' && attribute.name.text !== 'default') {
    return quoteMessage(value);
  }
  return JSON.stringify(value) ?? attribute.value!.text;
}

/** The checksum text of a list's constraints and default, in canonical order (docs/protocol.md §2). */
export function attributeChecksumLines(attributes: readonly Attribute[] | undefined, indent: string): string[] {
  if (!attributes) return [];
  return printAttributeItems(attributes, false).map((item) => `${indent}attribute:${item}`);
}
