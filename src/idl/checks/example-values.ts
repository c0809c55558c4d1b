/**
 * Whether a JSON value is a value of an IDL type, as the wire's validators read it (runtime/schema.ts),
 * for `@example` tags: the first problem with the JSON path where it is, or nothing.
 *
 * One difference on purpose: a struct example may not hold a field the struct does not declare (the
 * wire lets unknown fields through, but in an example one is a typo that readers would copy).
 */
import { BASE64_PATTERN, DATE_PATTERN, TIMESTAMP_PATTERN, wireFormProblem } from '../../../runtime/wire-formats.js';
import { type BuiltInTypeName, discriminatorOf, type EnumDecl, type StructDecl, type TypeRef, type UnionDecl } from '../ast.js';

/** The largest integer a JSON number carries exactly (the wire's `int` range is ±(2^53 − 1)). */
const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

export interface ValueProblem {
  /** JSON path of the offending value, `$` for the whole example. */
  path: string;
  message: string;
}

/** What the check needs to know of the declared types. */
export interface ValueTypes {
  types: ReadonlyMap<string, EnumDecl | StructDecl>;
  /** The parent of each struct that extends one. */
  parentOf: ReadonlyMap<StructDecl, StructDecl>;
  /** The unions by name; a value of a union not given here is not judged. */
  unions?: ReadonlyMap<string, UnionDecl>;
}

/** Nesting deeper than this is not walked (the example is one line; a struct may be recursive). */
const MAX_DEPTH = 64;

/** The first problem of `value` as a value of `type` (`null` allowed when `optional`), or undefined. */
export function valueProblem(value: unknown, type: TypeRef, optional: boolean, known: ValueTypes): ValueProblem | undefined {
  if (optional && value === null) return undefined;
  return problemOf(value, type, '$', known, 0);
}

/** The first problem of `value` as a value of the struct or enum `declaration`. */
export function declarationValueProblem(value: unknown, declaration: EnumDecl | StructDecl, known: ValueTypes): ValueProblem | undefined {
  return declaredProblem(value, declaration, '$', known, 0);
}

function problemOf(value: unknown, type: TypeRef, path: string, known: ValueTypes, depth: number): ValueProblem | undefined {
  if (depth > MAX_DEPTH) return { path, message: `nested deeper than ${MAX_DEPTH} levels: write a smaller example` };
  switch (type.kind) {
    case 'builtIn':
      return builtInProblem(value, type.name, path);
    case 'array':
      if (!Array.isArray(value)) return { path, message: `expected an array, found ${describe(value)}` };
      for (let i = 0; i < value.length; i++) {
        const problem = problemOf(value[i], type.element, `${path}[${i}]`, known, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    case 'map':
      if (!isObject(value)) return { path, message: `expected an object (a map), found ${describe(value)}` };
      for (const [key, item] of Object.entries(value)) {
        const problem = problemOf(item, type.value, memberPath(path, key), known, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    case 'named': {
      const declaration = known.types.get(type.name);
      if (declaration) return declaredProblem(value, declaration, path, known, depth);
      const union = known.unions?.get(type.name);
      return union ? unionProblem(value, union, path, known, depth) : undefined;
    }
  }
}

function declaredProblem(
  value: unknown,
  declaration: EnumDecl | StructDecl,
  path: string,
  known: ValueTypes,
  depth: number,
): ValueProblem | undefined {
  if (declaration.kind === 'enum') {
    const names = declaration.values.map((v) => v.name.text);
    if (typeof value === 'string' && names.includes(value)) return undefined;
    return {
      path,
      message: `expected one of the values of enum '${declaration.name.text}' (${names.map((n) => `"${n}"`).join(', ')}), found ${describe(value)}`,
    };
  }
  if (!isObject(value)) return { path, message: `expected an object (struct '${declaration.name.text}'), found ${describe(value)}` };
  const chain: StructDecl[] = [];
  const seen = new Set<StructDecl>();
  for (let s: StructDecl | undefined = declaration; s && !seen.has(s); s = known.parentOf.get(s)) {
    seen.add(s);
    chain.push(s);
  }
  chain.reverse();
  const declared = new Set<string>();
  for (const struct of chain) {
    for (const field of struct.fields) {
      declared.add(field.name.text);
      const fieldPath = memberPath(path, field.name.text);
      if (!Object.hasOwn(value, field.name.text)) {
        if (field.optional) continue;
        return { path: fieldPath, message: `the required field '${field.name.text}' of struct '${declaration.name.text}' is missing` };
      }
      const item = value[field.name.text];
      if (field.optional && item === null) continue;
      const problem = problemOf(item, field.type, fieldPath, known, depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of Object.keys(value)) {
    if (!declared.has(key)) return { path: memberPath(path, key), message: `struct '${declaration.name.text}' has no field '${key}'` };
  }
  return undefined;
}

/** A union's value: an object whose tag selects a variant, the rest a value of the variant's struct. */
function unionProblem(value: unknown, union: UnionDecl, path: string, known: ValueTypes, depth: number): ValueProblem | undefined {
  if (!isObject(value)) return { path, message: `expected an object (union '${union.name.text}'), found ${describe(value)}` };
  const discriminator = discriminatorOf(union);
  const tagPath = memberPath(path, discriminator);
  const tags = union.variants.map((v) => `"${v.tag.text}"`).join(', ');
  if (!Object.hasOwn(value, discriminator)) {
    return { path: tagPath, message: `the tag '${discriminator}' of union '${union.name.text}' is missing (one of ${tags})` };
  }
  const variant = union.variants.find((v) => v.tag.text === value[discriminator]);
  if (!variant)
    return {
      path: tagPath,
      message: `expected one of the tags of union '${union.name.text}' (${tags}), found ${describe(value[discriminator])}`,
    };
  const struct = known.types.get(variant.type.text);
  if (struct?.kind !== 'struct') return undefined;
  const { [discriminator]: _tag, ...fields } = value;
  return declaredProblem(fields, struct, path, known, depth + 1);
}

/** The wire form each string-carried built-in type is checked under (`json` takes any value). */
const WIRE_FORM_PATTERNS: Partial<Record<BuiltInTypeName, string>> = {
  timestamp: TIMESTAMP_PATTERN,
  date: DATE_PATTERN,
  bytes: BASE64_PATTERN,
};

function builtInProblem(value: unknown, name: BuiltInTypeName, path: string): ValueProblem | undefined {
  switch (name) {
    case 'string':
      return typeof value === 'string' ? undefined : { path, message: `expected a string, found ${describe(value)}` };
    case 'bool':
      return typeof value === 'boolean' ? undefined : { path, message: `expected true or false, found ${describe(value)}` };
    case 'float':
      return typeof value === 'number' ? undefined : { path, message: `expected a number, found ${describe(value)}` };
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return { path, message: `expected an integer, found ${describe(value)}` };
      if (Math.abs(value) > MAX_SAFE_INT) return { path, message: `${value} is out of the range of int (±${MAX_SAFE_INT})` };
      return undefined;
    case 'json':
      return undefined;
    default: {
      const pattern = WIRE_FORM_PATTERNS[name]!;
      if (typeof value === 'string' && new RegExp(pattern).test(value)) return undefined;
      return { path, message: `${wireFormProblem(pattern)}, found ${describe(value)}` };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `$.name` for identifier keys, `$["odd key"]` otherwise. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** A short description of a JSON value for messages: `the string "x"`, `the number 3`, `null`, `an array`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value === 'boolean' ? 'value' : 'number'} ${String(value)}`;
}
