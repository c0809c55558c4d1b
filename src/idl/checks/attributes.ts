/**
 * Attribute lists (docs/idl.md, "Attributes") and optional parameters: `unknown-attribute`,
 * `duplicate-attribute`, `attribute-value` (a value of the wrong kind, or none), `attribute-type`
 * (an attribute on a type it does not bound), `attribute-range` (a lower bound above its upper
 * bound), `invalid-pattern`, `invalid-default` (not a value of the type, or breaking the item's own
 * constraints), `misplaced-default` (on a result, or without `optional`), `optional-parameter-order`;
 * and the note `unchecked-format` for a `format` name the validators do not check.
 *
 * Each is located at the attribute (its name, or its value where the value is wrong).
 */
import { constraintProblem } from '../../../runtime/constraints.js';
import type { IdlJsonConstraints } from '../../../runtime/idl-json.js';
import {
  ARRAY_CONSTRAINTS,
  ATTRIBUTE_ORDER,
  CHECKED_FORMATS,
  constraintsOf,
  isAttributeName,
  NUMBER_CONSTRAINTS,
  STRING_CONSTRAINTS,
} from '../attributes.js';
import type { Attribute, Method, SourceSpan, TypeRef } from '../ast.js';
import { errorAt } from '../diagnostic.js';
import { createSuggester, suggestionCandidates } from '../suggestion.js';
import type { CheckContext } from './context.js';
import { valueProblem } from './example-values.js';

/** What the list belongs to, for messages and for where `default` may go. */
type ItemKind = 'field' | 'parameter' | 'result';

interface Item {
  kind: ItemKind;
  type: TypeRef;
  optional: boolean;
  attributes: readonly Attribute[];
}

/** The attributes bounding each kind of value. */
const KIND_OF: Record<string, 'number' | 'string' | 'array' | 'format'> = {
  ...Object.fromEntries(NUMBER_CONSTRAINTS.map((name) => [name, 'number'])),
  ...Object.fromEntries(STRING_CONSTRAINTS.map((name) => [name, 'string'])),
  ...Object.fromEntries(ARRAY_CONSTRAINTS.map((name) => [name, 'array'])),
  format: 'format',
};

/** Names whose value is a count: an integer from 0. */
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/** Lower and upper bounds that must not cross. */
const RANGES: readonly [keyof IdlJsonConstraints, keyof IdlJsonConstraints, boolean][] = [
  ['min', 'max', false],
  ['exclusiveMin', 'exclusiveMax', true],
  ['min', 'exclusiveMax', true],
  ['exclusiveMin', 'max', true],
  ['minLength', 'maxLength', false],
  ['minItems', 'maxItems', false],
];

export function checkAttributes(context: CheckContext): void {
  const suggest = createSuggester();
  const candidates = suggestionCandidates(ATTRIBUTE_ORDER);
  const check = (item: Item) => checkItem(context, item, (name) => suggest(name, candidates));
  for (const struct of context.structs) {
    for (const field of struct.fields) {
      if (field.attributes) check({ kind: 'field', type: field.type, optional: field.optional, attributes: field.attributes });
    }
  }
  for (const iface of context.interfaces) {
    for (const method of iface.methods) {
      checkParameterOrder(context, method);
      for (const parameter of method.parameters) {
        const attributes = parameter.attributes;
        if (attributes) check({ kind: 'parameter', type: parameter.type, optional: parameter.optional === true, attributes });
      }
      const returned = method.returnAttributes;
      if (returned) check({ kind: 'result', type: method.returnType, optional: method.returnOptional, attributes: returned });
    }
  }
}

function checkItem(context: CheckContext, item: Item, suggest: (name: string) => string | undefined): void {
  const seen = new Set<string>();
  let valid = true;
  for (const attribute of item.attributes) {
    const name = attribute.name.text;
    if (!isAttributeName(name)) {
      const suggested = suggest(name);
      const hint = suggested ? `; did you mean '${suggested}'?` : ` (the attributes are ${ATTRIBUTE_ORDER.join(', ')})`;
      report(context, 'unknown-attribute', `unknown attribute '${name}'${hint}`, attribute.name.span);
      valid = false;
      continue;
    }
    if (seen.has(name)) {
      report(context, 'duplicate-attribute', `'${name}' is written twice in this attribute list`, attribute.name.span);
      valid = false;
      continue;
    }
    seen.add(name);
    const problem = valueKindProblem(attribute) ?? placementProblem(context, item, attribute);
    if (problem) {
      report(context, problem.code, problem.message, problem.at ?? attribute.name.span);
      valid = false;
    }
  }
  if (!valid) return;
  const constraints = constraintsOf(item.attributes) ?? {};
  if (!checkRanges(context, item, constraints)) return;
  checkFormat(context, item);
  checkDefault(context, item, constraints);
}

interface Problem {
  code: string;
  message: string;
  at?: SourceSpan;
}

/** The value an attribute takes: none for `optional`, a number, a count, a quoted text, or JSON. */
function valueKindProblem(attribute: Attribute): Problem | undefined {
  const name = attribute.name.text;
  const value = attribute.value;
  if (name === 'optional') {
    return value ? { code: 'attribute-value', message: 'optional takes no value: write [optional]', at: value.span } : undefined;
  }
  if (!value) {
    const sample = name === 'pattern' ? '"^[a-z]+$"' : name === 'format' ? '"email"' : name === 'default' ? '30' : '1';
    return { code: 'attribute-value', message: `${name} takes a value: write ${name}=${sample}` };
  }
  if (name === 'default') return undefined;
  if (name === 'pattern' || name === 'format') {
    if (!value.text.startsWith('"')) {
      return { code: 'attribute-value', message: `${name} takes a quoted text: write ${name}="${value.text}"`, at: value.span };
    }
    if (name === 'pattern') return patternProblem(value.value as string, value.span);
    return undefined;
  }
  if (typeof value.value !== 'number')
    return { code: 'attribute-value', message: `${name} takes a number, not ${value.text}`, at: value.span };
  if (COUNTS.has(name) && !(Number.isInteger(value.value) && value.value >= 0)) {
    return { code: 'attribute-value', message: `${name} takes a whole number from 0, not ${value.text}`, at: value.span };
  }
  if (name === 'multipleOf' && !(value.value > 0)) {
    return { code: 'attribute-value', message: `multipleOf takes a number above 0, not ${value.text}`, at: value.span };
  }
  return undefined;
}

function patternProblem(pattern: string, at: SourceSpan): Problem | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: /, '');
    return { code: 'invalid-pattern', message: `pattern is not a valid regular expression (read with the u flag): ${reason}`, at };
  }
}

/** Whether the attribute goes on this item and its type. */
function placementProblem(context: CheckContext, item: Item, attribute: Attribute): Problem | undefined {
  const name = attribute.name.text;
  if (name === 'optional') return undefined;
  if (name === 'default') {
    if (item.kind === 'result') {
      return { code: 'misplaced-default', message: 'a result takes no default: defaults fill what a request leaves out' };
    }
    if (!item.optional) {
      return {
        code: 'misplaced-default',
        message: `a default needs optional: only an item callers may leave out gets one (write [optional, default=${attribute.value?.text}])`,
      };
    }
    return undefined;
  }
  const kind = KIND_OF[name];
  const target = kind === 'array' ? typeKind(context, item.type) : typeKind(context, elementOf(item.type));
  const fits =
    kind === 'array'
      ? target === 'array'
      : kind === 'number'
        ? target === 'int' || target === 'float'
        : kind === 'string'
          ? target === 'string'
          : target === 'string' || target === 'int' || target === 'float';
  // An unknown type is reported where it is named; the attribute is not judged against it.
  if (fits || target === 'unknown') return undefined;
  const goes = { number: 'int and float', string: 'string', array: 'arrays ([]T)', format: 'string, int and float' }[kind];
  const on = kind === 'array' ? describeType(context, item.type) : describeType(context, elementOf(item.type));
  return {
    code: 'attribute-type',
    message: `${name} does not apply to ${on}: it goes on ${goes}${kind === 'array' ? '' : ' (and their arrays and maps)'}`,
  };
}

/** A bound above its counterpart, reported at the second of the two. */
function checkRanges(context: CheckContext, item: Item, constraints: IdlJsonConstraints): boolean {
  for (const [low, high, strict] of RANGES) {
    const lower = constraints[low] as number | undefined;
    const upper = constraints[high] as number | undefined;
    if (lower === undefined || upper === undefined) continue;
    if (strict ? lower < upper : lower <= upper) continue;
    const at = item.attributes.find((attribute) => attribute.name.text === high)!;
    report(context, 'attribute-range', `${high}=${upper} is below ${low}=${lower}: no value can meet both`, at.value?.span ?? at.span);
    return false;
  }
  return true;
}

function checkFormat(context: CheckContext, item: Item): void {
  const format = item.attributes.find((attribute) => attribute.name.text === 'format');
  const name = format?.value?.value as string | undefined;
  if (!format || name === undefined) return;
  const checked = typeKind(context, elementOf(item.type)) === 'string' && CHECKED_FORMATS.includes(name);
  if (checked) return;
  context.report({
    ...errorAt(
      'unchecked-format',
      `format "${name}" is kept for documentation and OpenAPI, not checked (the checked formats are ${CHECKED_FORMATS.join(', ')} on strings)`,
      format.value!.span,
    ),
    severity: 'note',
  });
}

/** A default must be a value of the type, and meet the item's own constraints (each element's too). */
function checkDefault(context: CheckContext, item: Item, constraints: IdlJsonConstraints): void {
  const fallback = item.attributes.find((attribute) => attribute.name.text === 'default');
  if (!fallback?.value) return;
  const value = fallback.value.value;
  const typeProblem = valueProblem(value, item.type, false, { types: context.types, parentOf: context.parentOf });
  if (typeProblem) {
    const at = typeProblem.path === '$' ? '' : ` at ${typeProblem.path}`;
    report(
      context,
      'invalid-default',
      `default is not a value of this ${item.kind}'s type${at}: ${typeProblem.message}`,
      fallback.value.span,
    );
    return;
  }
  const broken = constraintProblem(value, constraints) ?? elementProblem(value, item.type, constraints);
  if (broken) report(context, 'invalid-default', `default breaks this ${item.kind}'s own constraints: ${broken}`, fallback.value.span);
}

/** The first constraint an element (or map value) of a default breaks, with its place. */
function elementProblem(value: unknown, type: TypeRef, constraints: IdlJsonConstraints): string | undefined {
  if (type.kind !== 'array' && type.kind !== 'map') return undefined;
  const { minItems: _min, maxItems: _max, ...perElement } = constraints;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((element, i) => [`[${i}]`, element])
    : Object.entries(value as Record<string, unknown>).map(([key, element]) => [`.${key}`, element]);
  const inner = type.kind === 'array' ? type.element : type.value;
  for (const [place, element] of entries) {
    const problem =
      (inner.kind === 'array' || inner.kind === 'map' ? undefined : constraintProblem(element, perElement)) ??
      elementProblem(element, inner, perElement);
    if (problem) return `${place}: ${problem}`;
  }
  return undefined;
}

/** Optional parameters come after the required ones: a required one after an optional one is reported. */
function checkParameterOrder(context: CheckContext, method: Method): void {
  let firstOptional: string | undefined;
  for (const parameter of method.parameters) {
    if (parameter.optional) firstOptional ??= parameter.name.text;
    else if (firstOptional !== undefined) {
      report(
        context,
        'optional-parameter-order',
        `required parameter '${parameter.name.text}' follows the optional parameter '${firstOptional}': optional parameters come last`,
        parameter.name.span,
      );
      return;
    }
  }
}

/** The type an array's or map's constraints apply to: its innermost element or value. */
function elementOf(type: TypeRef): TypeRef {
  let current = type;
  while (current.kind === 'array' || current.kind === 'map') current = current.kind === 'array' ? current.element : current.value;
  return current;
}

/** What the type is, as far as constraints care. */
function typeKind(context: CheckContext, type: TypeRef): string {
  if (type.kind === 'array') return 'array';
  if (type.kind === 'map') return 'map';
  if (type.kind === 'builtIn') return type.name;
  if (context.unionsByName.has(type.name)) return 'union';
  return context.types.get(type.name)?.kind ?? 'unknown';
}

function describeType(context: CheckContext, type: TypeRef): string {
  const kind = typeKind(context, type);
  if (type.kind === 'named') return `${kind === 'unknown' ? '' : `the ${kind} `}${type.name}`;
  if (kind === 'array' || kind === 'map') return `a ${kind}`;
  return kind;
}

function report(context: CheckContext, code: string, message: string, at: SourceSpan): void {
  context.report(errorAt(code, message, at));
}
