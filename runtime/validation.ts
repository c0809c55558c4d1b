/**
 * Validators: a fast boolean check per request, and plain-word problems with paths only when the
 * check fails (collecting errors costs ~280x a check, so it never runs on the happy path).
 *
 * Generated code passes checks compiled ahead of time (`TypeCompiler.Code`), so no `eval` or
 * `new Function` runs in production; `compileValidators` builds them at start-up otherwise.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { IdlJson } from './idl-json.js';
import { idlSchemas, MAX_SAFE_INT } from './schema.js';

/** One problem in a value: where (relative to the validated value) and what, in plain words. */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export interface Validator {
  check(value: unknown): boolean;
  /** Every problem of `value` (empty when it is valid), at most `MAX_ISSUES`. */
  errors(value: unknown): ValidationIssue[];
}

/** Validators of one method: one per parameter (IDL order) and one for the result. */
export type MethodValidators = { params: Validator[]; result: Validator };

/** Keyed by `"<Interface>.<method>"`. */
export type ValidatorTable = Record<string, MethodValidators>;

/** An error response lists at most this many problems, so a huge bad array stays a small answer. */
export const MAX_ISSUES = 100;

/**
 * A validator from a compiled check and the schema it was compiled from (plus the named schemas
 * it references). `errors()` explains the value against the schema only when `check` fails.
 */
export function typeboxValidator(check: (value: unknown) => boolean, schema: TSchema, references: TSchema[]): Validator {
  const byId = new Map<string, TSchema>();
  for (const reference of references) if (typeof reference.$id === 'string') byId.set(reference.$id, reference);
  return {
    check,
    errors(value) {
      if (check(value)) return [];
      const issues: ValidationIssue[] = [];
      explain(schema, value, [], { byId, references, issues });
      if (issues.length === 0) issues.push(...typeboxIssues(schema, references, value));
      if (issues.length === 0) issues.push({ path: [], message: 'value does not match the IDL type' });
      return issues.slice(0, MAX_ISSUES);
    },
  };
}

/** Builds the validator table of an IDL by compiling its schemas now (uses `new Function`). */
export function compileValidators(idl: IdlJson): ValidatorTable {
  const { references, methods } = idlSchemas(idl);
  const compile = (schema: TSchema): Validator => {
    const compiled = TypeCompiler.Compile(schema, references);
    return typeboxValidator((value) => compiled.Check(value), schema, references);
  };
  const table: ValidatorTable = {};
  for (const [name, schemas] of Object.entries(methods)) {
    table[name] = { params: schemas.params.map(compile), result: compile(schemas.result) };
  }
  return table;
}

/** `['params', 0, 'items', 2, 'quantity']` -> `params[0].items[2].quantity`. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

interface ExplainState {
  byId: Map<string, TSchema>;
  references: TSchema[];
  issues: ValidationIssue[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What `explain` needs of an Object, Record or Union schema, worked out once per schema. */
type SchemaFacts =
  | { kind: 'object'; fields: [string, TSchema][]; required: Set<string> }
  | { kind: 'record'; valueSchema: TSchema }
  | { kind: 'enum'; values: unknown[]; message: string }
  | { kind: 'union'; members: TSchema[]; nonNull: TSchema[]; allowsNull: boolean };

// Schemas are immutable once validators exist, so their facts can be kept as long as they live.
const factsCache = new WeakMap<TSchema, SchemaFacts>();

function factsOf(schema: TSchema): SchemaFacts {
  let facts = factsCache.get(schema);
  if (facts === undefined) {
    facts = computeFacts(schema);
    factsCache.set(schema, facts);
  }
  return facts;
}

function computeFacts(schema: TSchema): SchemaFacts {
  switch (schema[Kind]) {
    case 'Object':
      return { kind: 'object', fields: Object.entries(schema.properties as Record<string, TSchema>), required: new Set<string>(schema.required ?? []) };
    case 'Record':
      return { kind: 'record', valueSchema: Object.values(schema.patternProperties as Record<string, TSchema>)[0] };
    default: {
      const members = schema.anyOf as TSchema[];
      if (members.every((member) => member[Kind] === 'Literal')) {
        return { kind: 'enum', values: members.map((member) => member.const), message: `expected one of: ${members.map((member) => String(member.const)).join(', ')}` };
      }
      const nonNull = members.filter((member) => member[Kind] !== 'Null');
      return { kind: 'union', members, nonNull, allowsNull: nonNull.length < members.length };
    }
  }
}

/**
 * Walks the value along the schema and records every problem in plain words. `path` is one shared
 * stack (pushed and popped around each child), copied only when a problem is recorded.
 */
function explain(schema: TSchema, value: unknown, path: (string | number)[], state: ExplainState): void {
  if (state.issues.length >= MAX_ISSUES) return;
  const problem = (message: string) => state.issues.push({ path: path.slice(), message });
  switch (schema[Kind]) {
    case 'Ref': {
      const target = state.byId.get(schema.$ref);
      if (target) explain(target, value, path, state);
      else problem(`unknown type ${schema.$ref}`);
      return;
    }
    case 'String':
      if (typeof value !== 'string') problem('expected string');
      return;
    case 'Boolean':
      if (typeof value !== 'boolean') problem('expected boolean');
      return;
    case 'Null':
      if (value !== null) problem('expected null');
      return;
    case 'Number':
      if (typeof value !== 'number' || !Number.isFinite(value)) problem('expected number');
      return;
    case 'Integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) problem('expected integer');
      else if (Math.abs(value) > MAX_SAFE_INT) problem(`value ${value} is outside the safe integer range ±(2^53−1)`);
      return;
    case 'Literal':
      if (value !== schema.const) problem(`expected ${JSON.stringify(schema.const)}`);
      return;
    case 'Array':
      if (!Array.isArray(value)) return void problem('expected array');
      for (let index = 0; index < value.length && state.issues.length < MAX_ISSUES; index++) {
        if (!(index in value)) continue; // a hole of a sparse array is no element (as with forEach)
        path.push(index);
        explain(schema.items, value[index], path, state);
        path.pop();
      }
      return;
    case 'Record': {
      if (!isObject(value)) return void problem('expected object');
      const { valueSchema } = factsOf(schema) as Extract<SchemaFacts, { kind: 'record' }>;
      for (const key of Object.keys(value)) {
        if (state.issues.length >= MAX_ISSUES) return;
        path.push(key);
        explain(valueSchema, value[key], path, state);
        path.pop();
      }
      return;
    }
    case 'Object': {
      if (!isObject(value)) return void problem('expected object');
      const { fields, required } = factsOf(schema) as Extract<SchemaFacts, { kind: 'object' }>;
      for (const [key, fieldSchema] of fields) {
        if (!Object.hasOwn(value, key) || value[key] === undefined) {
          if (required.has(key)) problem(`missing required field '${key}'`);
        } else {
          path.push(key);
          explain(fieldSchema, value[key], path, state);
          path.pop();
        }
      }
      return;
    }
    case 'Union': {
      const facts = factsOf(schema) as Extract<SchemaFacts, { kind: 'enum' | 'union' }>;
      if (facts.kind === 'enum') {
        if (!facts.values.includes(value)) problem(facts.message);
        return;
      }
      if (value === null && facts.allowsNull) return;
      if (facts.nonNull.length === 1) {
        // An [optional] field or result: explain against its type, and say null was also allowed.
        const before = state.issues.length;
        explain(facts.nonNull[0], value, path, state);
        const first = state.issues[before];
        if (state.issues.length === before + 1 && first.path.length === path.length && first.message.startsWith('expected ')) {
          first.message += ' or null';
        }
        return;
      }
      if (!facts.members.some((member) => Value.Check(member, state.references, value))) problem('value matches none of the allowed types');
      return;
    }
    case 'Never':
      problem('no value is allowed here');
      return;
    default:
      state.issues.push(...typeboxIssues(schema, state.references, value).map((issue) => ({ ...issue, path: [...path, ...issue.path] })));
  }
}

/** Fallback for schema kinds the IDL mapping does not produce: TypeBox's own error list. */
function typeboxIssues(schema: TSchema, references: TSchema[], value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of Value.Errors(schema, references, value)) {
    const path = error.path === '' ? [] : error.path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    issues.push({ path: path.map((s) => (/^\d+$/.test(s) ? Number(s) : s)), message: error.message });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}
