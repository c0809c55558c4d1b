/**
 * A program of several namespaces (a root file and the files it imports, docs/idl.md "Several
 * files") is generated as one module per namespace. This is how a module sees the program: its own
 * declarations, and the other namespaces it reaches through their modules.
 */
import type { IdlModel } from '../idl/model.js';
import type { ModuleId } from './declarations.js';

/**
 * The namespaces that declare something, in file order: `undefined` for the root file's (and the
 * files merged into it), then each imported namespace.
 */
export function namespacesOf(model: IdlModel): (string | undefined)[] {
  const namespaces: (string | undefined)[] = [undefined];
  for (const file of model.files) if (file.namespace !== undefined && !namespaces.includes(file.namespace)) namespaces.push(file.namespace);
  return namespaces;
}

/**
 * The model restricted to one namespace's declarations (`undefined`: the root's). The maps of
 * types and errors stay whole: a struct may extend one of another namespace, whose fields it has.
 */
export function namespaceView(model: IdlModel, namespace: string | undefined): IdlModel {
  if (namespace === undefined && model.files.length === 1) return model;
  const mine = (declaration: { namespace?: string }) => declaration.namespace === namespace;
  return {
    ...model,
    enums: model.enums.filter(mine),
    structs: model.structs.filter(mine),
    ...(model.unions ? { unions: model.unions.filter(mine) } : {}),
    errors: model.errors.filter(mine),
    interfaces: model.interfaces.filter(mine),
  };
}

/** The name a declaration is written with in its own file: `Money` for `common.Money`. */
export function shortName(idlName: string): string {
  return idlName.slice(idlName.lastIndexOf('.') + 1);
}

/** The module of a namespace, as generated code imports it (`namespace:` alone is the root's). */
export function namespaceModuleId(namespace: string | undefined): ModuleId {
  return `namespace:${namespace ?? ''}`;
}

/** The namespace of a module id made by {@link namespaceModuleId}, or undefined for other modules. */
export function namespaceOfModuleId(module: ModuleId): string | undefined {
  return module.startsWith('namespace:') ? module.slice('namespace:'.length) : undefined;
}
