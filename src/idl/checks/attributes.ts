/**
 * Attribute lists and optional parameters (docs/idl.md, "Attributes" and "Optional parameters"):
 * `unknown-attribute` (with a suggestion), `duplicate-attribute`, `invalid-attribute-value` (a value
 * of the wrong kind, a flag with a value, a name without one), `attribute-type` (an attribute on a
 * type it does not bound: `min` on a string), `misplaced-attribute` (a default on a return),
 * `default-without-optional`, `conflicting-constraints` (`min` above `max`, and the like),
 * `invalid-pattern`, `invalid-default` (not a value of the type, or outside the item's own
 * constraints) and `optional-parameter-order`; and the note `unchecked-format` for a `format` the
 * validators do not check (it is kept for documentation and OpenAPI).
 *
 * Each item is judged once and each list once, so the pass takes time linear in the lists' length.
 */
import type { Attribute, SourceSpan, TypeRef } from '../ast.js';
import { type AttributeOwnerKind, attributeNamesFor, constraintApplies, elementTypeOf } from '../attribute-placement.js';
import {
  ATTRIBUTE_ORDER,
  type AttributeName,
  CHECKED_FORMATS,
  isAttributeName,
  isConstraintName,
  NUMBER_CONSTRAINTS,
} from '../attributes.js';
import { type Diagnostic, errorAt, relatedLocation } from '../diagnostic.js';
import { printType } from '../format.js';
import { createSuggester, suggestionCandidates } from '../suggestion.js';
import { valueOutsideConstraints } from './attribute-values.js';
import type { CheckContext } from './context.js';
import { valueProblem } from './example-values.js';

/** What carries the list, for messages and for what may be written there. */
interface ListOwner {
  /** `field 'qty'`, `parameter 'perPage'`, `the return of 'list'`. */
  label: string;
  kind: AttributeOwnerKind;
  type: TypeRef;
  optional: boolean;
}

/** The attributes that take a number, and those among them that take a count (an integer >= 0). */
const NUMBER_VALUED: ReadonlySet<string> = new Set(NUMBER_CONSTRAINTS);
const COUNT_VALUED: ReadonlySet<string> = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);
const TEXT_VALUED: ReadonlySet<string> = new Set(['pattern', 'format']);

/** The lower and upper bound pairs that must leave room for a value. */
const BOUND_PAIRS: readonly { low: AttributeName; high: AttributeName; strict: boolean }[] = [
  { low: 'min', high: 'max', strict: false },
  { low: 'exclusiveMin', high: 'exclusiveMax', strict: true },
  { low: 'minLength', high: 'maxLength', strict: false },
  { low: 'minItems', high: 'maxItems', strict: false },
];

export function checkAttributes(context: CheckContext): void {
  const suggest = createSuggester();
  const candidates = suggestionCandidates(ATTRIBUTE_ORDER);
  const suggestName = (name: string) => {
    const found = suggest(name, candidates);
    return found === undefined ? '' : `; did you mean '${found}'?`;
  };
  const judge = (attributes: Attribute[] | undefined, owner: ListOwner) => {
    if (attributes) checkList(context, attributes, owner, suggestName);
  };
  for (const struct of context.structs) {
    for (const field of struct.fields) {
      judge(field.attributes, { label: `field '${field.name.text}'`, kind: 'field', type: field.type, optional: field.optional });
    }
  }
  for (const iface of context.interfaces) {
    for (const method of iface.methods) {
      for (const parameter of method.parameters) {
        judge(parameter.attributes, {
          label: `parameter '${parameter.name.text}'`,
          kind: 'parameter',
          type: parameter.type,
          optional: parameter.optional === true,
        });
      }
      checkParameterOrder(context, method.parameters);
      judge(method.returnAttributes, {
        label: `the return of '${method.name.text}'`,
        kind: 'return',
        type: method.returnType,
        optional: method.returnOptional,
      });
    }
  }
}

/** A required parameter after an optional one: positional callers could not leave the optional one out. */
function checkParameterOrder(
  context: CheckContext,
  parameters: readonly { name: { text: string; span: SourceSpan }; optional?: boolean }[],
) {
  let firstOptional: (typeof parameters)[number] | undefined;
  for (const parameter of parameters) {
    if (parameter.optional) {
      firstOptional ??= parameter;
    } else if (firstOptional) {
      context.report(
        errorAt(
          'optional-parameter-order',
          `required parameter '${parameter.name.text}' comes after the optional parameter '${firstOptional.name.text}': optional parameters go after the required ones`,
          parameter.name.span,
          { related: [relatedLocation(`'${firstOptional.name.text}' is optional`, firstOptional.name.span)] },
        ),
      );
    }
  }
}

function checkList(context: CheckContext, attributes: Attribute[], owner: ListOwner, suggestName: (name: string) => string): void {
  const { report } = context;
  // The first well-formed item of each name: what the pair and default checks read.
  const accepted = new Map<AttributeName, Attribute>();
  const seen = new Map<string, Attribute>();
  for (const attribute of attributes) {
    const name = attribute.name.text;
    const first = seen.get(name);
    if (first) {
      report(
        errorAt('duplicate-attribute', `attribute '${name}' is already given in this list`, attribute.name.span, {
          related: [relatedLocation(`'${name}' is first given here`, first.name.span)],
        }),
      );
      continue;
    }
    seen.set(name, attribute);
    if (!isAttributeName(name)) {
      report(
        errorAt('unknown-attribute', `unknown attribute '${name}'${suggestName(name) || `: ${validHere(owner)}`}`, attribute.name.span),
      );
      continue;
    }
    const problem = valueKindProblem(name, attribute) ?? placementProblem(name, owner);
    if (problem) {
      report(problem(attribute));
      continue;
    }
    accepted.set(name, attribute);
  }
  checkBoundPairs(context, accepted);
  checkFormat(context, accepted.get('format'), owner);
  const defaultItem = accepted.get('default');
  if (defaultItem) checkDefault(context, defaultItem, owner, attributes, accepted);
}

type Problem = (attribute: Attribute) => Diagnostic;

/** Whether the item's value is of the kind its name takes; undefined when it is. */
function valueKindProblem(name: AttributeName, attribute: Attribute): Problem | undefined {
  const value = attribute.value;
  if (name === 'optional') {
    return value === undefined
      ? undefined
      : () => errorAt('invalid-attribute-value', 'optional takes no value: write [optional]', value.span);
  }
  if (value === undefined) {
    const example = name === 'default' ? 'default=30' : NUMBER_VALUED.has(name) || COUNT_VALUED.has(name) ? `${name}=1` : `${name}="..."`;
    return () => errorAt('invalid-attribute-value', `${name} takes a value: write ${example}`, attribute.name.span);
  }
  const at = (message: string) => () => errorAt('invalid-attribute-value', message, value.span);
  if (NUMBER_VALUED.has(name)) {
    if (typeof value.value !== 'number' || !Number.isFinite(value.value)) return at(`${name} takes a number, not ${value.text}`);
    if (name === 'multipleOf' && value.value <= 0) return at(`multipleOf takes a number greater than 0, not ${value.text}`);
  }
  if (COUNT_VALUED.has(name)) {
    const n = value.value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      return at(`${name} takes a whole number of 0 or more, not ${value.text}`);
  }
  if (TEXT_VALUED.has(name)) {
    if (typeof value.value !== 'string' || !value.text.startsWith('"')) {
      return at(`${name} takes a quoted text such as ${name === 'pattern' ? '"^[a-z]+$"' : '"email"'}, not ${value.text}`);
    }
    if (name === 'format' && value.value === '') return at('format takes a name such as "email", not an empty text');
    if (name === 'pattern') {
      const problem = patternProblem(value.value);
      if (problem)
        return () => errorAt('invalid-pattern', `pattern is not a valid regular expression (ECMA-262, u flag): ${problem}`, value.span);
    }
  }
  return undefined;
}

/** Why `pattern` does not compile with the `u` flag, or undefined. */
function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    // "Invalid regular expression: /(/u: Unterminated group": the part after the pattern says what.
    const message = (error as Error).message;
    const reason = message.slice(message.lastIndexOf(': ') + 2);
    return reason || message;
  }
}

/** Whether the item may be written on this owner's type; undefined when it may. */
function placementProblem(name: AttributeName, owner: ListOwner): Problem | undefined {
  if (name === 'optional') return undefined;
  if (name === 'default') {
    if (owner.kind === 'return') {
      return (attribute) =>
        errorAt(
          'misplaced-attribute',
          'a return takes no default: a default fills what a request leaves out, never a result',
          attribute.name.span,
        );
    }
    if (!owner.optional) {
      return (attribute) =>
        errorAt(
          'default-without-optional',
          `${owner.label} has a default but is not optional: write [optional, default=...] (a default is what an item left out gets)`,
          attribute.name.span,
        );
    }
    return undefined;
  }
  if (constraintApplies(name, owner.type)) return undefined;
  return (attribute) =>
    errorAt('attribute-type', `${name} does not apply to ${describeType(owner.type)}: ${whereItApplies(name)}`, attribute.name.span);
}

function whereItApplies(name: AttributeName): string {
  if (name === 'minItems' || name === 'maxItems') return 'it bounds an array ([]T)';
  if (NUMBER_VALUED.has(name)) return 'it bounds int and float (on an array or map, each element)';
  if (name === 'format') return 'it goes on string, int and float (on an array or map, each element)';
  return 'it bounds string (on an array or map, each element)';
}

/** `a string`, `[]bool`, `enum 'Color'`, `struct 'Cart'`, `union 'Payment'`. */
function describeType(type: TypeRef): string {
  if (type.kind === 'builtIn') return type.name === 'int' ? 'an int' : `a ${type.name}`;
  if (type.kind === 'named') return `'${type.name}'`;
  return printType(type);
}

/** The attribute names that may be written on this owner: what an unknown name is told. */
function validHere(owner: ListOwner): string {
  return `the attributes here are ${attributeNamesFor(owner.type, owner.kind).join(', ')}`;
}

function checkBoundPairs(context: CheckContext, accepted: ReadonlyMap<AttributeName, Attribute>): void {
  for (const { low, high, strict } of BOUND_PAIRS) {
    const lowItem = accepted.get(low);
    const highItem = accepted.get(high);
    if (!lowItem?.value || !highItem?.value) continue;
    const lowValue = lowItem.value.value as number;
    const highValue = highItem.value.value as number;
    if (strict ? lowValue < highValue : lowValue <= highValue) continue;
    context.report(
      errorAt(
        'conflicting-constraints',
        `${low}=${lowItem.value.text} is ${strict && lowValue === highValue ? 'equal to' : 'greater than'} ${high}=${highItem.value.text}: no value could meet both`,
        lowItem.span,
        { related: [relatedLocation(`${high} is given here`, highItem.span)] },
      ),
    );
  }
}

/** The note for a format the validators do not check. */
function checkFormat(context: CheckContext, item: Attribute | undefined, owner: ListOwner): void {
  if (!item?.value) return;
  const format = item.value.value as string;
  const element = elementTypeOf(owner.type);
  const onString = element.kind === 'builtIn' && element.name === 'string';
  if (onString && CHECKED_FORMATS.includes(format)) return;
  const why = onString ? `the checked formats are ${CHECKED_FORMATS.join(', ')}` : 'formats of numbers are never checked';
  context.report({
    ...errorAt(
      'unchecked-format',
      `format ${item.value.text} is not checked: it is kept for documentation and OpenAPI (${why})`,
      item.value.span,
    ),
    severity: 'note',
  });
}

/** A default must be a value of the type that meets the item's own constraints. */
function checkDefault(
  context: CheckContext,
  item: Attribute,
  owner: ListOwner,
  attributes: readonly Attribute[],
  accepted: ReadonlyMap<AttributeName, Attribute>,
): void {
  const value = item.value!;
  const known = { types: context.types, parentOf: context.parentOf, unions: context.unionsByName };
  const typeProblem = valueProblem(value.value, owner.type, false, known);
  if (typeProblem) {
    const at = typeProblem.path === '$' ? '' : `at ${typeProblem.path}: `;
    context.report(
      errorAt(
        'invalid-default',
        `the default of ${owner.label} is not a value of ${printType(owner.type)}: ${at}${typeProblem.message}`,
        value.span,
      ),
    );
    return;
  }
  // Only the constraints that were accepted: a refused one already has its own error.
  const constraints = new Map<string, unknown>();
  for (const attribute of attributes) {
    const name = attribute.name.text;
    if (isConstraintName(name) && accepted.get(name) === attribute) constraints.set(name, attribute.value!.value);
  }
  const outside = valueOutsideConstraints(value.value, owner.type, constraints);
  if (outside) {
    const at = outside.path === '$' ? '' : `at ${outside.path}: `;
    context.report(
      errorAt('invalid-default', `the default of ${owner.label} breaks its own constraints: ${at}${outside.message}`, value.span),
    );
  }
}
