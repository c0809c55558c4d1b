/**
 * The `httpStatus` option of `createRpcServer`: the HTTP status the REST binding answers a declared
 * error with, by the error's IDL name (`{ Unauthorized: 401, Forbidden: 403 }`), instead of 422.
 * Mostly for errors that middleware raises (authentication, permissions, rate limits).
 */
import type { IdlJson } from './idl-json.js';

/** Status by error code, checked against the IDL's errors; empty without the option. */
export function declaredErrorStatuses(idl: IdlJson, httpStatus: Readonly<Record<string, number>> | undefined): ReadonlyMap<number, number> {
  const statuses = new Map<number, number>();
  if (httpStatus === undefined) return statuses;
  if (typeof httpStatus !== 'object' || httpStatus === null)
    throw new Error('createRpcServer: httpStatus must be an object like { Unauthorized: 401 }');
  const errors = idl.errors ?? [];
  for (const [name, status] of Object.entries(httpStatus)) {
    // Qualified (`auth.Unauthorized`) or bare when only one namespace declares the name.
    const matches = errors.filter((error) => error.name === name || error.name.slice(error.name.lastIndexOf('.') + 1) === name);
    const exact = matches.find((error) => error.name === name);
    if (matches.length === 0) {
      const known = errors.map((error) => error.name).join(', ') || 'none';
      throw new Error(`createRpcServer: httpStatus names "${name}", which is not an error of the IDL (errors: ${known})`);
    }
    if (!exact && matches.length > 1) {
      throw new Error(
        `createRpcServer: httpStatus: "${name}" is declared in several namespaces; write one of ${matches.map((e) => e.name).join(', ')}`,
      );
    }
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new Error(`createRpcServer: httpStatus.${name} must be an HTTP error status from 400 to 599, got ${JSON.stringify(status)}`);
    }
    statuses.set((exact ?? matches[0]).code, status);
  }
  return statuses;
}
