/**
 * Every Python name of a program (the root file and its imports), decided once before any module is
 * written, so that a module naming another namespace's declaration uses the name that module gives it.
 */
import { pascalCaseWords, snakeCase } from '../case-conversion.js';
import type { StructDecl } from '../idl/ast.js';
import { namespacesOf, shortName } from '../codegen/namespace-view.js';
import type { IdlModel } from '../idl/model.js';
import { claimPythonName, className, moduleName } from './python-names.js';

/** The Python names of one program. Maps are keyed by IDL name (qualified for imported namespaces). */
export interface ProgramNames {
  /** The package (the root namespace, or the name asked for). */
  packageName: string;
  /** The module of each namespace (the root's: `__init__`). */
  modules: ReadonlyMap<string | undefined, string>;
  /** The namespace declaring each struct, enum, union, error and interface (undefined: the root's). */
  namespaceOf: ReadonlyMap<string, string | undefined>;
  /** Struct, enum and union classes. */
  classes: ReadonlyMap<string, string>;
  /** Declared error classes (`<Name>Error`). */
  errors: ReadonlyMap<string, string>;
  /** Client classes (`<Interface>Client`). */
  clients: ReadonlyMap<string, string>;
  /**
   * The snake_case stem of each struct, enum and union's module-internal reader and writer
   * (`_read_<stem>`, `_write_<stem>`), unique in its module.
   */
  helpers: ReadonlyMap<string, string>;
  /** Union variant classes (`<Union><Tag>`), by `<union>\0<tag>`. */
  variants: ReadonlyMap<string, string>;
  /** Each struct's attributes by wire field name, inherited ones included. */
  fields: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Each interface's methods: the method and its `<method>_call` (the unsent call, for batches). */
  methods: ReadonlyMap<string, ReadonlyMap<string, { call: string; batchCall: string }>>;
}

/** Names every module imports or the root module re-exports from the runtime: IDL names yield to them. */
const MODULE_NAMES = ['Any', 'ClassVar', 'Iterator', 'Literal', 'Optional', 'Union'];
/** The names the runtime module exports that the root module re-exports. */
export const RUNTIME_EXPORTS = [
  'Batch',
  'BatchResult',
  'CONTRACT_HEADER',
  'Call',
  'DeclaredError',
  'InvalidResultError',
  'RpcError',
  'Transport',
  'TransportError',
] as const;

/** The names of `model`'s program; `packageName` overrides the root namespace's. */
export function programNames(model: IdlModel, packageName?: string): ProgramNames {
  const namespaces = namespacesOf(model);
  const topLevel = new Set<string>();
  const pkg = packageName ?? moduleName(model.namespace, topLevel, true);
  const submodules = new Set<string>();
  const modules = new Map<string | undefined, string>([[undefined, '__init__']]);
  for (const namespace of namespaces) if (namespace !== undefined) modules.set(namespace, moduleName(namespace, submodules, false));

  const namespaceOf = new Map<string, string | undefined>();
  const classes = new Map<string, string>();
  const errors = new Map<string, string>();
  const clients = new Map<string, string>();
  const variants = new Map<string, string>();
  const helpers = new Map<string, string>();
  for (const namespace of namespaces) {
    // Classes differing only in case or underscores (`OrderStatus`, `Order_Status`) share a stem: `_` tells them apart.
    const stems = new Set<string>();
    const taken = new Set<string>([...MODULE_NAMES, ...(namespace === undefined ? RUNTIME_EXPORTS : [])]);
    const mine = <T extends { namespace?: string; name: { text: string } }>(items: readonly T[]) =>
      items.filter((item) => item.namespace === namespace);
    for (const decl of [...mine(model.structs), ...mine(model.enums), ...mine(model.unions ?? [])]) {
      namespaceOf.set(decl.name.text, namespace);
      classes.set(decl.name.text, className(shortName(decl.name.text), taken));
      helpers.set(
        decl.name.text,
        claimPythonName(snakeCase(shortName(decl.name.text)), stems, () => true),
      );
    }
    for (const error of mine(model.errors)) {
      namespaceOf.set(error.name.text, namespace);
      errors.set(error.name.text, className(`${pascalCaseWords(shortName(error.name.text))}Error`, taken));
    }
    for (const iface of mine(model.interfaces)) {
      namespaceOf.set(iface.name.text, namespace);
      clients.set(iface.name.text, className(`${pascalCaseWords(shortName(iface.name.text))}Client`, taken));
    }
    for (const union of mine(model.unions ?? [])) {
      for (const variant of union.variants) {
        const base = `${classes.get(union.name.text)!.replace(/_+$/, '')}${pascalCaseWords(variant.tag.text)}`;
        variants.set(`${union.name.text}\u0000${variant.tag.text}`, className(base, taken));
      }
    }
  }

  const fields = new Map<string, Map<string, string>>();
  const fieldsOf = (struct: StructDecl): Map<string, string> => {
    const known = fields.get(struct.name.text);
    if (known) return known;
    const parent = struct.extends && model.types.get(struct.extends.text);
    const inherited = parent && parent.kind === 'struct' ? fieldsOf(parent) : new Map<string, string>();
    const own = new Map(inherited);
    const taken = new Set(inherited.values());
    for (const field of struct.fields) own.set(field.name.text, claimPythonName(snakeCase(field.name.text), taken));
    fields.set(struct.name.text, own);
    return own;
  };
  for (const struct of model.structs) fieldsOf(struct);

  const methods = new Map<string, Map<string, { call: string; batchCall: string }>>();
  for (const iface of model.interfaces) {
    const taken = new Set<string>(['CONTRACT']);
    const calls = iface.methods.map((method) => claimPythonName(snakeCase(method.name.text), taken));
    const own = new Map<string, { call: string; batchCall: string }>();
    for (const [i, method] of iface.methods.entries()) own.set(method.name.text, { call: calls[i], batchCall: '' });
    for (const method of iface.methods) {
      const entry = own.get(method.name.text)!;
      if (!method.stream) entry.batchCall = claimPythonName(`${entry.call.replace(/_+$/, '')}_call`, taken);
    }
    methods.set(iface.name.text, own);
  }
  return { packageName: pkg, modules, namespaceOf, classes, errors, clients, helpers, variants, fields, methods };
}
