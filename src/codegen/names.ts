/**
 * How IDL names become TypeScript names. Every valid IDL name generates valid code: a name that
 * TypeScript cannot declare, that would hide a global or an import, or that another generated name
 * already holds, gets an underscore (`class` -> `class_`). Wire names (JSON-RPC method names, JSON
 * field names, `$id`s, the IDL JSON) never change. The rule is documented in docs/idl.md.
 */
import type { IdlModel } from '../idl/model.js';
import { JAVASCRIPT_RESERVED_WORDS, STRICT_MODE_RESTRICTED_NAMES } from '../javascript-reserved-words.js';
import type { Declaration, Use } from './declarations.js';
import { namespaceModuleId, namespaceView, namespacesOf, shortName } from './namespace-view.js';

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

/** Exported names of `types.ts` that are part of its API: IDL names yield to them. */
export const SCHEMA_REFERENCES = 'schemaReferences';
export const METHOD_SCHEMAS = 'methodSchemas';
export const VALIDATORS = 'validators';

/** Names the generated code imports (from the runtime and TypeBox). */
export const IMPORTED_NAMES: ReadonlySet<string> = new Set([
  'Type',
  'TSchema',
  'DeclaredError',
  'Transport',
  'CallOptions',
  'RpcPromise',
  'callMethod',
  'callMethodWithoutRaises',
  'generatedValidator',
  'MAX_ISSUES',
  'recordProblem',
  'recordProblemAt',
  'isObjectValue',
  'integerProblem',
  'markOrNull',
  'ownField',
  'inheritedProblems',
  'deferToExplainer',
  'ProblemPath',
  'ValidationIssue',
  'ExtendedStruct',
  'ValidatorTable',
  'RpcContext',
  'RpcServer',
  'RpcServerOptions',
  'createRpcServer',
  'IdlJson',
  'jsonStringContent',
  'SerializerTable',
]);

/**
 * Words no declaration, parameter or variable of a module may be named: JavaScript's reserved words
 * (with those of strict mode, which modules are in) and `arguments` and `eval`, which strict mode
 * forbids as names.
 */
export const UNDECLARABLE_NAMES: ReadonlySet<string> = new Set([...JAVASCRIPT_RESERVED_WORDS, ...STRICT_MODE_RESTRICTED_NAMES]);

/**
 * TypeScript's predefined types, the keywords that start a type (`keyof T`, `readonly T[]`, ...) and
 * `as` (`export type as = ...` does not parse): a type named like one could not be declared, or not
 * be written where a type goes.
 */
export const TYPESCRIPT_TYPE_KEYWORDS: ReadonlySet<string> = new Set(
  'any as asserts bigint boolean infer intrinsic is keyof never number object readonly string symbol undefined unique unknown void'.split(
    ' ',
  ),
);

/**
 * ECMAScript's globals and TypeScript's built-in types. A top-level generated name never takes one,
 * so generated code (and a module importing everything from it) always sees the global.
 */
export const GLOBAL_NAMES: ReadonlySet<string> = new Set(
  // ECMAScript global values, constructors and namespaces.
  (
    'globalThis Infinity NaN undefined isFinite isNaN parseFloat parseInt decodeURI decodeURIComponent encodeURI ' +
    'encodeURIComponent escape unescape AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array ' +
    'Boolean DataView Date EvalError FinalizationRegistry Float32Array Float64Array Function Int8Array Int16Array ' +
    'Int32Array Intl Iterator JSON Map Math Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set ' +
    'SharedArrayBuffer String Symbol SyntaxError TypeError Uint8Array Uint8ClampedArray Uint16Array Uint32Array ' +
    'URIError WeakMap WeakRef WeakSet ' +
    // TypeScript's utility and built-in types.
    'Awaited Capitalize ConstructorParameters Exclude Extract InstanceType Lowercase NoInfer NonNullable Omit ' +
    'OmitThisParameter Parameters Partial Pick PromiseLike PropertyKey Readonly ReadonlyArray ReadonlyMap ReadonlySet ' +
    'Record Required ReturnType ThisParameterType ThisType Uncapitalize Uppercase ArrayLike Iterable IterableIterator'
  ).split(' '),
);

/** Whether `name` can be declared at the top of a generated module, before uniqueness. */
function isDeclarable(name: string): boolean {
  return !UNDECLARABLE_NAMES.has(name) && !TYPESCRIPT_TYPE_KEYWORDS.has(name) && !GLOBAL_NAMES.has(name) && !IMPORTED_NAMES.has(name);
}

/** `base`, or `base` with underscores appended, whichever is declarable and not in `taken`; adds it to `taken`. */
export function claimName(base: string, taken: Set<string>, declarable: (name: string) => boolean = isDeclarable): string {
  let name = base;
  while (!declarable(name) || taken.has(name)) name += '_';
  taken.add(name);
  return name;
}

/** `base`, or `base` with a number appended, whichever is not in `taken`; adds the result to `taken`. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/**
 * The TypeScript names of a method's parameters, in order (IDL parameter names are unique). A name
 * that is not a reserved word and not in `avoid` (what the generated method's body uses) is kept;
 * any other gets underscores until it is neither and no other parameter has it (`default` ->
 * `default_`).
 */
export function parameterNames(parameters: readonly { name: { text: string } }[], avoid: Iterable<string>): string[] {
  const taken = new Set(avoid);
  const own = parameters.map((p) => p.name.text);
  const keeps = own.map((name) => !UNDECLARABLE_NAMES.has(name) && !taken.has(name));
  const claimed = new Set([...taken, ...own.filter((_, i) => keeps[i])]);
  return own.map((name, i) => (keeps[i] ? name : claimName(name, claimed, (n) => !UNDECLARABLE_NAMES.has(n))));
}

/**
 * The names of a client class's methods, in order: the IDL method names, except that `constructor`
 * (which would be the class's constructor) gets underscores until no other method has the name.
 */
export function clientMethodNames(methods: readonly { name: { text: string } }[]): string[] {
  const taken = new Set(methods.map((m) => m.name.text));
  return methods.map((m) =>
    m.name.text === 'constructor' ? claimName('constructor', taken, (name) => name !== 'constructor') : m.name.text,
  );
}

/** The names of the server-side declarations, derived from the IDL namespace. */
export interface ServerNames {
  /** `<ns>Idl`: the embedded IDL JSON. */
  idl: string;
  /** `<Ns>Handlers`: one handler object per interface. */
  handlers: string;
  /** `<Ns>ServerOptions`. */
  options: string;
  /** `create<Ns>Server`. */
  create: string;
}

/** Every top-level TypeScript name generated for an IDL (see `typeScriptNames`). */
export interface TypeScriptNames {
  /**
   * The TypeScript name of a struct, enum or interface (the handler interface), by IDL name. A
   * declaration of another namespace is reached through that namespace's module: `common.Money`.
   */
  declared(idlName: string): string;
  /** `<Type>Schema`, by struct or enum IDL name (another namespace's: this module's own copy). */
  schema(typeName: string): string;
  /** `<Name>Error`, by error IDL name (another namespace's: `common.NotFoundError`). */
  errorClass(errorName: string): string;
  /** `<NAME>`, the error's code constant, by error IDL name. */
  errorCode(errorName: string): string;
  /** `<Interface>Client`, by interface IDL name. */
  client(interfaceName: string): string;
  /** What using `declared(idlName)` (`value`: or `errorClass`) takes: nothing, or the import of its namespace's module. */
  use(idlName: string, value: boolean): Use;
  server: ServerNames;
  /** Every name above, the imports and the fixed exports: what internal names must avoid. */
  taken: ReadonlySet<string>;
}

/**
 * The top-level TypeScript names of an IDL. Claimed in this order, each taking the first of `name`,
 * `name_`, `name__`, ... that is declarable (not a reserved word, TypeScript type keyword, global
 * or import) and not claimed before:
 *
 * 1. the fixed exports (`schemaReferences`, `methodSchemas`, `validators`) and the imports;
 * 2. the IDL's structs, enums and interfaces under their own names (a name that needs no change
 *    keeps it, even when a renamed one would have wanted it);
 * 3. derived names: per error `<Name>Error` and `<NAME>`, per interface `<Name>Client`, per struct
 *    and enum `<Name>Schema`, then `<ns>Idl`, `<Ns>Handlers`, `<Ns>ServerOptions`, `create<Ns>Server`.
 *
 * Internal names (compiled checks, validators) are made up later and avoid all of these.
 */
export function typeScriptNames(model: IdlModel, namespace?: string): TypeScriptNames {
  const own = ownNames(namespaceView(model, namespace));
  const { declared, errorClass, errorCode, client, schema, taken } = own;
  // Another namespace's declarations keep the names its own module gives them, behind the
  // namespace's import; claimed after every name of this module, so they never change those.
  const uses = new Map<string, Use>();
  for (const other of namespacesOf(model)) {
    if (other === namespace) continue;
    const theirs = ownNames(namespaceView(model, other));
    const alias = claimName(other ?? model.namespace, taken);
    const use: Use = { from: namespaceModuleId(other), name: alias, typeOnly: true };
    for (const [idlName, name] of theirs.declared) {
      declared.set(idlName, `${alias}.${name}`);
      uses.set(idlName, use);
    }
    for (const [idlName, name] of theirs.errorClass) {
      errorClass.set(idlName, `${alias}.${name}`);
      errorCode.set(idlName, `${alias}.${theirs.errorCode.get(idlName)!}`);
      uses.set(idlName, use);
    }
    // Schemas are this module's own copies: a schema's `$id` is the name the whole program uses.
    for (const idlName of theirs.schema.keys())
      schema.set(idlName, claimName(`${pascalCase(other ?? model.namespace)}${shortName(idlName)}Schema`, taken));
  }
  const server = serverNamesOf(namespace ?? model.namespace, taken);
  const lookup = (map: Map<string, string>, what: string) => (name: string) => {
    const found = map.get(name);
    if (found === undefined) throw new CodegenError(`no generated name for ${what} '${name}'`);
    return found;
  };
  const ownUse: Use = { from: 'types', name: '', typeOnly: true };
  return {
    declared: lookup(declared, 'the declaration'),
    schema: lookup(schema, 'the schema of'),
    errorClass: lookup(errorClass, 'the error'),
    errorCode: lookup(errorCode, 'the code of'),
    client: lookup(client, 'the client of'),
    use(idlName, value) {
      const foreign = uses.get(idlName);
      if (foreign) return value ? { ...foreign, typeOnly: false } : foreign;
      return {
        ...ownUse,
        name: value ? lookup(errorClass, 'the error')(idlName) : lookup(declared, 'the declaration')(idlName),
        typeOnly: !value,
      };
    },
    server,
    taken,
  };
}

/** The names a namespace's module declares for its own declarations (see `typeScriptNames`). */
function ownNames(model: IdlModel) {
  const taken = new Set<string>([SCHEMA_REFERENCES, METHOD_SCHEMAS, VALIDATORS, ...IMPORTED_NAMES]);
  const declaredIdl = [...model.structs, ...model.enums, ...(model.unions ?? []), ...model.interfaces].map((decl) => decl.name.text);
  const declared = new Map<string, string>();
  for (const idlName of declaredIdl) {
    const name = shortName(idlName);
    if (isDeclarable(name) && !taken.has(name)) declared.set(idlName, claimName(name, taken));
  }
  for (const idlName of declaredIdl) if (!declared.has(idlName)) declared.set(idlName, claimName(shortName(idlName), taken));

  const errorClass = new Map<string, string>();
  const errorCode = new Map<string, string>();
  for (const error of model.errors) {
    const name = shortName(error.name.text);
    errorClass.set(error.name.text, claimName(`${name}Error`, taken));
    errorCode.set(error.name.text, claimName(constantCase(name), taken));
  }
  const client = new Map(model.interfaces.map((iface) => [iface.name.text, claimName(`${shortName(iface.name.text)}Client`, taken)]));
  const schema = new Map(
    [...model.structs, ...model.enums, ...(model.unions ?? [])].map((decl) => [
      decl.name.text,
      claimName(`${shortName(decl.name.text)}Schema`, taken),
    ]),
  );
  return { declared, errorClass, errorCode, client, schema, taken };
}

/** `<ns>Idl`, `<Ns>Handlers`, `<Ns>ServerOptions`, `create<Ns>Server`. */
function serverNamesOf(namespace: string, taken: Set<string>): ServerNames {
  const pascal = pascalCase(namespace);
  return {
    idl: claimName(`${camelCase(namespace)}Idl`, taken),
    handlers: claimName(`${pascal}Handlers`, taken),
    options: claimName(`${pascal}ServerOptions`, taken),
    create: claimName(`create${pascal}Server`, taken),
  };
}

/**
 * Throws a `CodegenError` if two declarations of a generated module share a name in one TypeScript
 * space (types; values), or one is not declarable: a bug of the naming above, never of the IDL.
 * An enum's type and its object of values share their name on purpose.
 */
export function assertUniqueNames(declarations: readonly Declaration[]): void {
  const values = new Set<string>();
  const types = new Set<string>();
  const claim = (space: Set<string>, name: string) => {
    if (space.has(name) || UNDECLARABLE_NAMES.has(name))
      throw new CodegenError(`internal error: the generated name '${name}' is not unique or not valid`);
    space.add(name);
  };
  for (const declaration of declarations) {
    if (declaration.kind === 'type' || declaration.kind === 'class') claim(types, declaration.name);
    if (declaration.kind !== 'type') claim(values, declaration.name);
  }
}

/** Thrown when an IDL cannot be turned into valid TypeScript (an internal inconsistency: every valid IDL can). */
export class CodegenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodegenError';
  }
}
