/**
 * How an IDL program maps onto Go packages: one package per namespace (docs/idl.md, "Several
 * files"), each in its own folder of the output, plus the shared `idlrpc` transport package; and
 * the Go name of every declaration, decided once for the whole program so a package refers to
 * another's types and errors by the names that package declares.
 */
import type { IdlModel } from '../idl/model.js';
import { namespacesOf, shortName } from '../codegen/namespace-view.js';
import { claim, GO_KEYWORDS, packageName, pascalCase } from './names.js';

/** The folder (and package) of the transport every generated package imports. */
export const RUNTIME_PACKAGE = 'idlrpc';

/** Package names a namespace must not take: the runtime's, the standard ones generated files import, and Go's special ones. */
const RESERVED_PACKAGES = [RUNTIME_PACKAGE, 'context', 'json', 'time', 'http', 'errors', 'main', 'internal', 'testdata', 'vendor'];

/** The names every generated package declares itself (aliases of the runtime's API). */
export const PACKAGE_API_NAMES = [
  'Option',
  'RPCError',
  'Batch',
  'NewBatch',
  'WithHTTPClient',
  'WithTimeout',
  'WithHeader',
  'WithMaxResponseBytes',
];

export interface GoPackage {
  /** The IDL namespace (undefined: the root file's). */
  namespace: string | undefined;
  /** Package name, which is also its folder. */
  name: string;
}

/** The Go names of one interface's client. */
export interface ClientNames {
  client: string;
  constructor: string;
  withTransport: string;
  contract: string;
  /** Per IDL method name: the client method, its batch form, the stream type (stream methods). */
  methods: Map<string, { method: string; batch: string; stream?: string; descriptor: string; decoder?: string }>;
}

export interface GoProgram {
  packages: GoPackage[];
  /** The package of a namespace. */
  packageOf(namespace: string | undefined): GoPackage;
  /** Go names of structs, enums and unions by IDL name. */
  typeName: Map<string, string>;
  /** Per declared error (IDL name): its type and code constant. */
  errorNames: Map<string, { type: string; code: string }>;
  /** Per enum (IDL name): the constant of each value. */
  enumConstants: Map<string, Map<string, string>>;
  /** Per interface (IDL name). */
  clients: Map<string, ClientNames>;
}

/** Names every declaration of `model` in Go, package by package. */
export function goProgram(model: IdlModel): GoProgram {
  const namespaces = namespacesOf(model);
  const usedPackages = new Set(RESERVED_PACKAGES);
  const packages = namespaces.map((namespace): GoPackage => {
    let name = packageName(namespace ?? model.namespace);
    while (usedPackages.has(name) || GO_KEYWORDS.has(name)) name += '_';
    usedPackages.add(name);
    return { namespace, name };
  });
  const packageOf = (namespace: string | undefined) => packages.find((p) => p.namespace === namespace) ?? packages[0];
  const program: GoProgram = {
    packages,
    packageOf,
    typeName: new Map(),
    errorNames: new Map(),
    enumConstants: new Map(),
    clients: new Map(),
  };
  for (const pkg of packages) nameDeclarations(model, pkg, program);
  return program;
}

function nameDeclarations(model: IdlModel, pkg: GoPackage, program: GoProgram): void {
  const mine = (decl: { namespace?: string }) => decl.namespace === pkg.namespace;
  const taken = new Set(PACKAGE_API_NAMES);
  const types = [...model.enums.filter(mine), ...model.structs.filter(mine), ...(model.unions ?? []).filter(mine)];
  for (const decl of types) program.typeName.set(decl.name.text, claim(pascalCase(shortName(decl.name.text)), taken));
  for (const decl of model.enums.filter(mine)) {
    const typeName = program.typeName.get(decl.name.text)!;
    program.enumConstants.set(
      decl.name.text,
      new Map(decl.values.map((value) => [value.name.text, claim(typeName + pascalCase(value.name.text), taken)])),
    );
  }
  for (const error of model.errors.filter(mine)) {
    const base = pascalCase(shortName(error.name.text));
    program.errorNames.set(error.name.text, { type: claim(`${base}Error`, taken), code: claim(`${base}Code`, taken) });
  }
  // Unexported package-level names (method descriptors, error decoders) never meet exported ones.
  const internal = new Set<string>();
  for (const iface of model.interfaces.filter(mine)) {
    const base = pascalCase(shortName(iface.name.text));
    const methodNames = new Set<string>();
    const names: ClientNames = {
      client: claim(`${base}Client`, taken),
      constructor: claim(`New${base}Client`, taken),
      withTransport: claim(`New${base}ClientWithTransport`, taken),
      contract: claim(`${base}Contract`, taken),
      methods: new Map(),
    };
    const plainNames = iface.methods.map((method) => claim(pascalCase(method.name.text), methodNames));
    iface.methods.forEach((method, i) => {
      const suffix = `${base}${pascalCase(method.name.text)}`;
      names.methods.set(method.name.text, {
        method: plainNames[i],
        batch: method.stream ? '' : claim(`${plainNames[i]}In`, methodNames),
        ...(method.stream ? { stream: claim(`${suffix}Stream`, taken) } : {}),
        descriptor: claim(`method${suffix}`, internal),
        ...(method.raises.length > 0 ? { decoder: claim(`errorsOf${suffix}`, internal) } : {}),
      });
    });
    program.clients.set(iface.name.text, names);
  }
}
