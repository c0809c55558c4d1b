/**
 * How IDL names become TypeScript names, and the check that generated names do not clash.
 */
import type { Declaration } from './declarations.js';

/** `pet_store` -> `PetStore`, `checkout` -> `Checkout`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** `pet_store` -> `petStore`, `Checkout` -> `checkout`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0].toLowerCase() + pascal.slice(1);
}

/** `CartNotFound` -> `CART_NOT_FOUND`; `HTTPError` -> `HTTP_ERROR`. */
export function constantCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/**
 * The class of a declared error: `<Name>Error`, always (`CartNotFound` -> `CartNotFoundError`), so the
 * class name matches the `name` the runtime gives its instances.
 */
export function errorClassName(errorName: string): string {
  return `${errorName}Error`;
}

export const clientClassName = (interfaceName: string) => `${interfaceName}Client`;
export const schemaName = (typeName: string) => `${typeName}Schema`;

/** Words that cannot name a parameter or variable in strict-mode modules. */
const RESERVED_WORDS = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval export extends ' +
    'false finally for function if implements import in instanceof interface let new null package private protected ' +
    'public return static super switch this throw true try typeof var void while with yield'
  ).split(' '),
);

/** `name` usable as a parameter: reserved words get a trailing underscore (`default` -> `default_`). */
export function parameterName(name: string): string {
  return RESERVED_WORDS.has(name) ? `${name}_` : name;
}

/** `base`, or `base` with a number appended, whichever is not in `taken`; adds the result to `taken`. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/**
 * Globals generated code relies on (the compiled validators use `Array`, `Date`, `Number`, `Object`
 * and `Uint8Array`; types use `Omit`, `Promise` and `Record`) and TypeScript's type keywords. A
 * generated value or type with one of these names would shadow it and break the module. (`Error` is
 * not among them: an IDL struct named `Error`, common in converted OpenAPI documents, is fine.)
 */
const GLOBAL_NAMES = new Set(
  (
    'Array Date Number Object Omit Promise Record Uint8Array undefined ' +
    'any bigint boolean never number object string symbol unknown void'
  ).split(' '),
);

/** Thrown when an IDL cannot be turned into valid TypeScript (a name clash the IDL checker allows). */
export class CodegenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodegenError';
  }
}

/**
 * Throws a `CodegenError` naming every clash among the top-level names of `declarations` (printed
 * into one module by the plugin, so they must be unique together) and with the globals above.
 * `imported` are the names imported from the runtime and TypeBox.
 */
export function assertNoNameClashes(declarations: readonly Declaration[], imported: ReadonlySet<string>): void {
  const problems: string[] = [];
  const values = new Map<string, string>();
  const types = new Map<string, string>();
  const claim = (space: Map<string, string>, name: string, what: string) => {
    const previous = space.get(name);
    if (previous !== undefined) problems.push(`${what} and ${previous} are both named '${name}'`);
    else if (GLOBAL_NAMES.has(name)) problems.push(`${what} '${name}' would hide the global '${name}' that generated code uses`);
    else if (imported.has(name)) problems.push(`${what} '${name}' clashes with '${name}' imported from the runtime`);
    else space.set(name, what);
  };
  for (const declaration of declarations) {
    const what = `the generated ${declaration.kind === 'code' ? 'function' : declaration.kind}`;
    if (declaration.kind === 'type' || declaration.kind === 'class') claim(types, declaration.name, what);
    if (declaration.kind !== 'type') claim(values, declaration.name, what);
  }
  if (problems.length > 0) {
    throw new CodegenError(`Cannot generate TypeScript for this IDL: ${problems.join('; ')}. Rename the IDL declaration.`);
  }
}
