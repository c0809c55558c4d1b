/**
 * The client's opt-in check of results against the IDL (docs/runtime.md, "Checking results"): an
 * interceptor that checks each result with its method's result validator, taken from the table a
 * generated module exports as `validators`. Its own file, reached only through `validateResults`:
 * a bundle that does not call it carries neither it nor the validators.
 */
import type { Interceptor } from './client-call.js';
import { formatPath } from './json-path.js';
import { transportError } from './transport-error.js';

/** What the check needs of a method's result validator (a generated `Validator` fits). */
export interface ResultValidator {
  check(value: unknown): boolean;
  errors(value: unknown): readonly { path: readonly (string | number)[]; message: string }[];
}

/** Validators by wire name, `"<Interface>.<method>"`: the generated `validators` table fits. */
export type ResultValidators = Readonly<Record<string, { readonly result: ResultValidator }>>;

/** One problem of a result: its JSON path (`result.items[0].price`) and what is wrong there. */
export interface ResultProblem {
  path: string;
  message: string;
}

/**
 * An interceptor that checks the result of every call whose method `validators` lists (others
 * pass unchecked): `new HttpTransport(url, { interceptors: [validateResults(validators)] })`. A
 * result that is not what the IDL says fails the call with a -32000 `Transport error: invalid result
 * of <method>: <path>: <problem>`, every problem in `data.errors`. Put it first, so the others see
 * checked results.
 */
export function validateResults(validators: ResultValidators): Interceptor {
  return (next) => async (call) => {
    const result = await next(call);
    const validator = validators[call.method]?.result;
    if (validator === undefined || validator.check(result)) return result;
    throw invalidResult(call.method, validator.errors(result));
  };
}

function invalidResult(method: string, issues: ReturnType<ResultValidator['errors']>) {
  const errors: ResultProblem[] = issues.map((issue) => ({ path: formatPath(['result', ...issue.path]), message: issue.message }));
  if (errors.length === 0) errors.push({ path: 'result', message: 'value does not match the IDL type' });
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return transportError(`invalid result of ${method}: ${errors[0].path}: ${errors[0].message}${more}`, { errors });
}
