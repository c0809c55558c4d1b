/**
 * Validators: a fast boolean check per request, and plain-word problems with paths only when the
 * check fails (listing problems costs 10-20x a check, so it never runs on the happy path).
 *
 * Generated code passes checks compiled ahead of time (`TypeCompiler.Code`), so no `eval` or
 * `new Function` runs in production; `compileValidators` builds them at start-up otherwise.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { buildExplainer, type NamedChecks, type ValidationIssue } from './explain.js';
import type { IdlJson } from './idl-json.js';
import { listProblems, type ProblemWalker } from './problem-walkers.js';
import { idlSchemas } from './schema.js';

export { MAX_ISSUES, type NamedChecks, type ValidationIssue } from './explain.js';
export { formatPath } from './json-path.js';

export interface Validator {
  check(value: unknown): boolean;
  /** Every problem of `value` (empty when it is valid), at most `MAX_ISSUES`. */
  errors(value: unknown): ValidationIssue[];
}

/** Validators of one method: one per parameter (IDL order) and one for the result. */
export type MethodValidators = { params: Validator[]; result: Validator };

/** Keyed by `"<Interface>.<method>"`. */
export type ValidatorTable = Record<string, MethodValidators>;

/**
 * A validator from a compiled check and the schema it was compiled from (plus the named schemas
 * it references). `errors()` explains the value against the schema only when `check` fails.
 *
 * `namedChecks` (optional) are the compiled checks of the named types, by `$id`: `errors()` then
 * skips every part of the value whose named type's check passes, and so lists problems only where
 * the checks fail. For plain data the list is the same with or without them; see `buildExplainer`
 * for values that are not plain data.
 */
export function typeboxValidator(
  check: (value: unknown) => boolean,
  schema: TSchema,
  references: TSchema[],
  namedChecks?: NamedChecks,
): Validator {
  // Built on the first failure, then reused: most validators of a service never see a bad value.
  let explain: ((value: unknown) => ValidationIssue[]) | undefined;
  return {
    check,
    errors(value) {
      if (check(value)) return [];
      explain ??= buildExplainer(schema, references, namedChecks);
      return explain(value);
    },
  };
}

/**
 * A validator from a compiled check and a problem walker generated ahead of time (generated code).
 * `errors()` lists what `typeboxValidator` with the named checks lists, at most `MAX_ISSUES`
 * problems, never none for a value `check` rejects. It walks the value first: when the walk finds
 * problems and the value's fields are all its own (what `JSON.parse` gives), that list is the answer,
 * with no schema read and no check run again. Otherwise (a valid value, or one with inherited fields,
 * which the check reads and the walker does not) it asks `check`, and the runtime's explainer
 * (`buildExplainer` over `schema`, `references` and `namedChecks`) has the last word.
 */
export function generatedValidator(
  check: (value: unknown) => boolean,
  walk: ProblemWalker,
  schema: TSchema,
  references: TSchema[],
  namedChecks?: NamedChecks,
): Validator {
  const explained = typeboxValidator(check, schema, references, namedChecks);
  return { check, errors: (value) => listProblems(walk, value) ?? explained.errors(value) };
}

/** Builds the validator table of an IDL by compiling its schemas now (uses `new Function`). */
export function compileValidators(idl: IdlJson): ValidatorTable {
  const { references, methods } = idlSchemas(idl);
  const namedChecks = lazyNamedChecks(references);
  const compile = (schema: TSchema): Validator => {
    const compiled = TypeCompiler.Compile(schema, references);
    return typeboxValidator((value) => compiled.Check(value), schema, references, namedChecks);
  };
  const table: ValidatorTable = {};
  for (const [name, schemas] of Object.entries(methods)) {
    table[name] = { params: schemas.params.map(compile), result: compile(schemas.result) };
  }
  return table;
}

/**
 * The check of every named schema, each compiled by TypeBox the first time `errors()` needs it
 * (and shared by all validators): start-up compiles only the validators' own checks.
 */
function lazyNamedChecks(references: TSchema[]): NamedChecks {
  // No prototype: a type may be called `__proto__` or `constructor`.
  const checks: Record<string, (value: unknown) => boolean> = Object.create(null);
  for (const schema of references) {
    if (typeof schema.$id !== 'string') continue;
    let compiled: TypeCheck<TSchema> | undefined;
    checks[schema.$id] = (value) => (compiled ??= TypeCompiler.Compile(schema, references)).Check(value);
  }
  return checks;
}
