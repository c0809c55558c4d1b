/**
 * OpenAPI schema keywords as IDL attribute lists (docs/openapi.md, "Constraints and defaults"), the
 * reverse of constraint-keywords.ts: `minimum` -> `min`, `exclusiveMinimum` (a number, or 3.0's
 * `true` beside `minimum`) -> `exclusiveMin`, `minLength`, `pattern`, `format`, `minItems`, ...,
 * `default`. The keywords are read where the type came from: through `$ref`s, a one-member `allOf`
 * and a "T or null" `oneOf`/`anyOf`, the outer schema's keyword winning; an array's or map's element
 * keywords from its innermost `items`/`additionalProperties` (the IDL's element rule).
 *
 * What the IDL cannot hold is left out with a warning naming the JSON path: a pattern that is not a
 * regular expression under the `u` flag, bounds that cross, a default that is not a value of the
 * type or breaks the item's constraints, a default on an item that is required.
 */
import { MAX_SAFE_INT } from '../../runtime/schema.js';
import type { Attribute, AttributeValue, Documented, EnumDecl, IdlFile, SourceSpan, StructDecl, TypeRef } from '../idl/ast.js';
import { constraintApplies, elementTypeOf } from '../idl/attribute-placement.js';
import type { AttributeName } from '../idl/attributes.js';
import { valueOutsideConstraints } from '../idl/checks/attribute-values.js';
import { type ValueTypes, valueProblem } from '../idl/checks/example-values.js';
import { quoteMessage } from '../idl/quoted-text.js';
import type { WarningSink } from './warnings.js';

type Schema = Record<string, unknown>;

/** The schemas a value's keywords may sit in, outermost first (what `$ref`s and wrappers lead to). */
export type KeywordChain = readonly Schema[];

/** Where the keywords of a schema are read: the chain it leads through, and that of its elements. */
export interface KeywordSource {
  chain: KeywordChain;
  /** The chain of an array's `items` or a map's `additionalProperties`. */
  element(chain: KeywordChain): KeywordChain | undefined;
}

/** OpenAPI keyword -> IDL attribute, for the string keywords. */
const STRING_KEYWORDS: readonly [string, AttributeName][] = [
  ['minLength', 'minLength'],
  ['maxLength', 'maxLength'],
  ['pattern', 'pattern'],
];

/** The first value of `keyword` along the chain (the outer schema wins). */
function keywordOf(chain: KeywordChain, keyword: string): unknown {
  for (const schema of chain) if (keyword in schema) return schema[keyword];
  return undefined;
}

/**
 * The attribute list of an item of IDL type `type` whose schema is `source`, `optional` first when
 * the item may be left out; undefined when the list would say no more than `[optional]`.
 */
export function attributesFromSchema(source: KeywordSource, type: TypeRef, optional: boolean, span: SourceSpan): Attribute[] | undefined {
  const items: Attribute[] = [];
  const add = (name: AttributeName, value: unknown) => {
    items.push(attribute(name, value, span));
  };
  const fallback = keywordOf(source.chain, 'default');
  if (fallback !== undefined) add('default', fallback);
  let chain: KeywordChain | undefined = source.chain;
  if (type.kind === 'array') {
    for (const keyword of ['minItems', 'maxItems'] as const) {
      const value = keywordOf(chain, keyword);
      if (isCount(value)) add(keyword, value);
    }
  }
  // Down to the innermost element, whose keywords the IDL's element rule applies to every element.
  for (let current = type; chain && (current.kind === 'array' || current.kind === 'map'); ) {
    chain = source.element(chain);
    current = current.kind === 'array' ? current.element : current.value;
  }
  if (chain) elementAttributes(chain, elementTypeOf(type), add);
  if (items.length === 0) return undefined;
  return optional ? [attribute('optional', undefined, span), ...items] : items;
}

function elementAttributes(chain: KeywordChain, element: TypeRef, add: (name: AttributeName, value: unknown) => void): void {
  if (element.kind !== 'builtIn') return;
  const number = element.name === 'int' || element.name === 'float';
  if (number) {
    bound(chain, 'minimum', 'exclusiveMinimum', 'min', 'exclusiveMin', add);
    bound(chain, 'maximum', 'exclusiveMaximum', 'max', 'exclusiveMax', add);
    const multipleOf = keywordOf(chain, 'multipleOf');
    if (typeof multipleOf === 'number' && multipleOf > 0) add('multipleOf', multipleOf);
  }
  if (element.name === 'string') {
    for (const [keyword, name] of STRING_KEYWORDS) {
      const value = keywordOf(chain, keyword);
      if (name === 'pattern' ? typeof value === 'string' : isCount(value)) add(name, value);
    }
  }
  const format = keywordOf(chain, 'format');
  const ownFormat = element.name === 'int' ? 'int64' : element.name === 'float' ? 'double' : undefined;
  if ((number || element.name === 'string') && typeof format === 'string' && format !== ownFormat) add('format', format);
}

/**
 * One side's bound: `minimum` -> `min`, 3.1's `exclusiveMinimum: 5` -> `exclusiveMin=5`, and 3.0's
 * `exclusiveMinimum: true` beside `minimum: 5` -> `exclusiveMin=5` alone. The writer's own
 * safe-integer range of every `int` is no constraint of the contract and is not read back.
 */
function bound(
  chain: KeywordChain,
  inclusiveKeyword: string,
  exclusiveKeyword: string,
  inclusiveName: AttributeName,
  exclusiveName: AttributeName,
  add: (name: AttributeName, value: unknown) => void,
): void {
  const inclusive = keywordOf(chain, inclusiveKeyword);
  const exclusive = keywordOf(chain, exclusiveKeyword);
  const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (exclusive === true) {
    if (finite(inclusive)) add(exclusiveName, inclusive);
    return;
  }
  if (finite(inclusive) && Math.abs(inclusive) !== MAX_SAFE_INT) add(inclusiveName, inclusive);
  if (finite(exclusive)) add(exclusiveName, exclusive);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function attribute(name: AttributeName, value: unknown, span: SourceSpan): Attribute {
  if (value === undefined) return { name: { text: name, span }, span };
  const text = typeof value === 'string' && name !== 'default' ? quoteMessage(value) : JSON.stringify(value);
  const attributeValue: AttributeValue = { value, text, span };
  return { name: { text: name, span }, value: attributeValue, span };
}

/**
 * Drops the attributes of a converted file that the IDL checker would refuse, each with a warning at
 * its item's pointer; runs once the file's declarations are complete (a default of an enum or struct
 * type is judged against them).
 */
export function dropInvalidAttributes(file: IdlFile, sink: WarningSink, pointerOf: (node: object) => string): void {
  const known = valueTypesOf(file);
  const judge = (node: Documented & { type: TypeRef; optional?: boolean; attributes?: Attribute[] }, what: string) => {
    if (!node.attributes) return;
    const kept = keptAttributes(node.attributes, node.type, node.optional === true, known, (problem) =>
      sink.warn(pointerOf(node), `${what}: ${problem}`),
    );
    if (kept.some((a) => a.name.text !== 'optional')) node.attributes = kept;
    else delete node.attributes;
  };
  for (const d of file.declarations) {
    if (d.kind === 'struct') for (const field of d.fields) judge(field, `${d.name.text}.${field.name.text}`);
    if (d.kind === 'interface') {
      for (const method of d.methods) {
        for (const parameter of method.parameters)
          judge(parameter, `parameter ${parameter.name.text} of ${d.name.text}.${method.name.text}`);
      }
    }
  }
}

/** The attributes the checker accepts, in their order; `report` hears why each other one is left out. */
function keptAttributes(
  attributes: readonly Attribute[],
  type: TypeRef,
  optional: boolean,
  known: ValueTypes,
  report: (problem: string) => void,
): Attribute[] {
  const kept = attributes.filter((a) => {
    const name = a.name.text as AttributeName;
    if (name === 'optional' || name === 'default') return true;
    if (!constraintApplies(name, type)) return false;
    if (name === 'pattern' && !compiles(a.value?.value as string)) {
      report(`pattern ${JSON.stringify(a.value?.value)} is not a regular expression under the u flag; left out`);
      return false;
    }
    if (name === 'multipleOf' && !((a.value?.value as number) > 0)) return false;
    return true;
  });
  const withoutCrossing = dropCrossingBounds(kept, report);
  const constraints = new Map(
    withoutCrossing.filter((a) => a.value && a.name.text !== 'default').map((a) => [a.name.text, a.value!.value]),
  );
  return withoutCrossing.filter((a) => {
    if (a.name.text !== 'default') return true;
    const value = a.value!.value;
    if (!optional) {
      report(`default ${JSON.stringify(value)} left out: the item is required, and only an item callers may leave out takes one`);
      return false;
    }
    const problem = valueProblem(value, type, false, known) ?? valueOutsideConstraints(value, type, constraints);
    if (problem) report(`default ${JSON.stringify(value)} left out: at ${problem.path}: ${problem.message}`);
    return problem === undefined;
  });
}

/** Bounds that no value meets together: the upper one is left out. */
function dropCrossingBounds(attributes: Attribute[], report: (problem: string) => void): Attribute[] {
  const value = (name: string) => attributes.find((a) => a.name.text === name)?.value?.value as number | undefined;
  const dropped = new Set<string>();
  for (const [low, high, strict] of [
    ['min', 'max', false],
    ['exclusiveMin', 'exclusiveMax', true],
    ['minLength', 'maxLength', false],
    ['minItems', 'maxItems', false],
  ] as const) {
    const lower = value(low);
    const upper = value(high);
    if (lower === undefined || upper === undefined || (strict ? lower < upper : lower <= upper)) continue;
    report(`${high}=${upper} is below ${low}=${lower}; ${high} left out`);
    dropped.add(high);
  }
  return attributes.filter((a) => !dropped.has(a.name.text));
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The declarations of a converted file, as the value checks read them. */
export function valueTypesOf(file: IdlFile): ValueTypes {
  const types = new Map<string, EnumDecl | StructDecl>();
  for (const d of file.declarations) if (d.kind === 'enum' || d.kind === 'struct') types.set(d.name.text, d);
  const parentOf = new Map<StructDecl, StructDecl>();
  for (const t of types.values()) {
    const parent = t.kind === 'struct' && t.extends ? types.get(t.extends.text) : undefined;
    if (t.kind === 'struct' && parent?.kind === 'struct') parentOf.set(t, parent);
  }
  const unions = new Map(file.declarations.flatMap((d) => (d.kind === 'union' ? [[d.name.text, d] as const] : [])));
  return { types, parentOf, unions };
}
