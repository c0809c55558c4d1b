/**
 * How IDL names become Python names (docs/generator.md, "Python"): PEP 8 case (classes PascalCase,
 * attributes, methods and parameters snake_case, enum members UPPER_SNAKE_CASE); a name that is a
 * keyword or builtin, or that another name already holds after the conversion, gets `_` appended
 * until it is free (`class` -> `class_`, `productId` and `product_id` -> `product_id`, `product_id_`).
 * Wire names (method names, JSON fields, enum values) never change.
 */
import { pascalCaseWords, snakeCase, upperSnakeCase } from '../case-conversion.js';
import { PYTHON_BUILTINS, PYTHON_KEYWORDS, PYTHON_STDLIB_MODULES } from './python-words.js';

/** Whether a name can be declared in generated code: no keyword, no builtin. */
export function isFreePythonName(name: string): boolean {
  return !PYTHON_KEYWORDS.has(name) && !PYTHON_BUILTINS.has(name);
}

/** `base`, or `base` with `_` appended until it is free and not in `taken`; adds it to `taken`. */
export function claimPythonName(base: string, taken: Set<string>, free: (name: string) => boolean = isFreePythonName): string {
  let name = base;
  while (!free(name) || taken.has(name)) name += '_';
  taken.add(name);
  return name;
}

/** The snake_case names of a list of IDL names (fields, methods, parameters), in order, each unique. */
export function snakeNames(names: readonly string[], taken: Set<string>): string[] {
  return names.map((name) => claimPythonName(snakeCase(name), taken));
}

/** The UPPER_SNAKE_CASE member names of an enum's values, in order, each unique. */
export function enumMemberNames(values: readonly string[]): string[] {
  const taken = new Set<string>();
  return values.map((value) => claimPythonName(upperSnakeCase(value), taken));
}

/** The PascalCase class name of an IDL type name, claimed in `taken`. */
export function className(idlName: string, taken: Set<string>): string {
  return claimPythonName(pascalCaseWords(idlName), taken);
}

/** Names a namespace's module cannot have: the runtime's module, and `annotations` (bound by `from __future__ import annotations`). */
const PACKAGE_MODULES: ReadonlySet<string> = new Set(['rpc_runtime', 'annotations']);

/** A package or module name for a namespace: snake_case, not a keyword, builtin or (`topLevel`) standard module. */
export function moduleName(namespace: string, taken: Set<string>, topLevel: boolean): string {
  return claimPythonName(
    snakeCase(namespace),
    taken,
    (name) => isFreePythonName(name) && !PACKAGE_MODULES.has(name) && !(topLevel && PYTHON_STDLIB_MODULES.has(name)),
  );
}
