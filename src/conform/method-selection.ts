/**
 * Which methods a run calls: all of the IDL's, or those `-methods` names; of those, only `@readonly`
 * ones unless `-all` is given (pointing `-conform` at a shared server must not create orders by
 * surprise); stream methods never (their answer is an event stream, which `-conform` does not read).
 */
import type { IdlJson, IdlJsonInterface, IdlJsonMethod } from '../../runtime/idl-json.js';

export interface SelectedMethods {
  run: { iface: IdlJsonInterface; method: IdlJsonMethod; name: string }[];
  skipped: { name: string; reason: string }[];
}

/** Thrown for a `-methods` entry that names no method of the IDL. */
export class UnknownMethodError extends Error {
  override name = 'UnknownMethodError';
}

/** Picks the methods to run; `only` are `<Interface>.<method>` names (every method when undefined). */
export function selectMethods(idl: IdlJson, only: readonly string[] | undefined, all: boolean): SelectedMethods {
  const methods = (idl.interfaces ?? []).flatMap((iface) =>
    (iface.methods ?? []).map((method) => ({ iface, method, name: `${iface.name}.${method.name}` })),
  );
  const known = new Set(methods.map((m) => m.name));
  const unknown = (only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new UnknownMethodError(
      `-methods names ${unknown.map((name) => `'${name}'`).join(', ')}, which the IDL does not declare (it has ${[...known].join(', ')})`,
    );
  const selected = new Set(only ?? known);
  const result: SelectedMethods = { run: [], skipped: [] };
  for (const entry of methods) {
    if (!selected.has(entry.name)) continue;
    if (entry.method.stream) result.skipped.push({ name: entry.name, reason: 'stream method: its event stream is not checked' });
    else if (!all && !entry.method.readonly) result.skipped.push({ name: entry.name, reason: 'not @readonly (-all runs it)' });
    else result.run.push(entry);
  }
  return result;
}
