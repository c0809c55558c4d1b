/**
 * Where each attribute may be written (docs/idl.md, "Attributes"): which constraints bound which
 * types, and which names a field, a parameter or a return takes. Read by the checker (to refuse a
 * misplaced attribute) and by the language server (to offer the names that fit).
 */
import type { TypeRef } from './ast.js';
import { ATTRIBUTE_ORDER, type AttributeName, NUMBER_CONSTRAINTS } from './attributes.js';

/** What carries an attribute list. */
export type AttributeOwnerKind = 'field' | 'parameter' | 'return';

/**
 * Whether the constraint `name` bounds values of `type`: `minItems`/`maxItems` an array itself;
 * number and string constraints a scalar, or each element of an array or value of a map at any
 * depth. `optional` and `default` are not constraints: see `attributeNamesFor`.
 */
export function constraintApplies(name: AttributeName, type: TypeRef): boolean {
  if (name === 'minItems' || name === 'maxItems') return type.kind === 'array';
  const scalar = elementTypeOf(type);
  if (scalar.kind !== 'builtIn') return false;
  if ((NUMBER_CONSTRAINTS as readonly string[]).includes(name)) return scalar.name === 'int' || scalar.name === 'float';
  if (name === 'format') return scalar.name === 'string' || scalar.name === 'int' || scalar.name === 'float';
  return scalar.name === 'string';
}

/** The type of the values an array or map holds, at any depth; the type itself otherwise. */
export function elementTypeOf(type: TypeRef): TypeRef {
  let element = type;
  while (element.kind === 'array' || element.kind === 'map') element = element.kind === 'array' ? element.element : element.value;
  return element;
}

/** The names that may be written on an item of `type` carried by `owner`, in canonical order. */
export function attributeNamesFor(type: TypeRef, owner: AttributeOwnerKind): AttributeName[] {
  return ATTRIBUTE_ORDER.filter((name) => {
    if (name === 'optional') return true;
    if (name === 'default') return owner !== 'return';
    return constraintApplies(name, type);
  });
}
