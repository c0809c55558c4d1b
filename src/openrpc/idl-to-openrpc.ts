/**
 * IDL -> OpenRPC: describes the JSON-RPC API of checked IDL models (docs/protocol.md §1) as an
 * OpenRPC 1.3.2 document (docs/openrpc.md). A thin emitter over the checked model: the types are
 * written by the schema mapping the OpenAPI converter uses (src/openapi/schema-mapping.ts), in JSON
 * Schema draft-07, OpenRPC's schema language; the methods are the calls as the server answers them.
 */
import type { ErrorDecl } from '../idl/ast.js';
import type { IdlModel } from '../idl/model.js';
import { documentInfo } from '../openapi/document-info.js';
import { uncoveredModels } from '../openapi/model-coverage.js';
import { type ModelNames, SchemaMapping } from '../openapi/schema-mapping.js';
import { type ConversionWarning, joinPointer, WarningSink } from '../openapi/warnings.js';
import { OPENRPC_VERSION } from './extensions.js';
import { methodObject } from './method-object.js';

export interface IdlToOpenRpcOptions {
  /** `info.version`; the IDL has no version of its own. Default `1.0.0`. */
  infoVersion?: string;
  /**
   * The absolute address of the JSON-RPC endpoint (`https://api.example.com/rpc`), written as
   * `servers[0].url`. A relative one is left out with a warning: OpenRPC requires an absolute URI,
   * and only the deployment knows the real one. Default none.
   */
  serverUrl?: string;
  /** `info.license`; the IDL has none, so it is left out by default. */
  license?: OpenRpcLicense;
  /** `info.contact`; the IDL has none, so it is left out by default. */
  contact?: OpenRpcContact;
}

/** The OpenRPC License Object. */
export interface OpenRpcLicense {
  name: string;
  url?: string;
}

/** The OpenRPC Contact Object. */
export interface OpenRpcContact {
  name?: string;
  url?: string;
  email?: string;
}

export interface IdlToOpenRpcResult {
  /** A plain JSON-serializable OpenRPC document. */
  document: Record<string, unknown>;
  /** Pointers are into `document`. */
  warnings: ConversionWarning[];
}

type Json = Record<string, unknown>;

/**
 * Converts checked IDL models (one, or several as for `idlToOpenApi`: a model another one imports is
 * described by that one) to one OpenRPC document. Methods are named as on the wire
 * (`CatalogService.getProduct`, `inventory.InventoryService.getStock`), in source order; types,
 * tags and errors are named as in the OpenAPI document of the same models.
 */
export function idlToOpenRpc(models: IdlModel | readonly IdlModel[], options: IdlToOpenRpcOptions = {}): IdlToOpenRpcResult {
  const described = uncoveredModels(Array.isArray(models) ? models : [models as IdlModel]);
  const sink = new WarningSink();
  const mapping = new SchemaMapping(described, 'draft-07', sink, {
    // A renamed interface is a tag name of its methods (their wire names keep the IDL's).
    interface: () => '/methods',
    errors: '/components/errors',
  });
  const info = documentInfo(described, options.infoVersion ?? '1.0.0');
  if (options.contact !== undefined) info.contact = { ...options.contact };
  if (options.license !== undefined) info.license = { ...options.license };
  const document: Json = { openrpc: OPENRPC_VERSION, info };
  const servers = serversOf(options.serverUrl, sink);
  if (servers !== undefined) document.servers = servers;
  document.methods = methods(mapping, sink);
  const components: Json = {};
  const schemas = mapping.componentSchemas();
  if (Object.keys(schemas).length > 0) components.schemas = schemas;
  const errors = errorComponents(mapping);
  if (Object.keys(errors).length > 0) components.errors = errors;
  if (Object.keys(components).length > 0) document.components = components;
  return { document, warnings: sink.warnings };
}

/** `[{ url }]` for an absolute URI; none (with a warning) for a relative one. */
function serversOf(serverUrl: string | undefined, sink: WarningSink): Json[] | undefined {
  if (serverUrl === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(serverUrl)) {
    sink.warn('/servers', `serverUrl ${JSON.stringify(serverUrl)} is not an absolute URI, which OpenRPC requires: no servers written`);
    return undefined;
  }
  return [{ url: serverUrl }];
}

/** Every method of every interface, in source order; a wire name two models share is suffixed, with a warning. */
function methods(mapping: SchemaMapping, sink: WarningSink): Json[] {
  const written: Json[] = [];
  const taken = new Set<string>();
  for (const { names, declaration: iface } of mapping.once((n) => n.model.interfaces)) {
    for (const method of iface.methods) {
      const wanted = `${iface.name.text}.${method.name.text}`;
      let name = wanted;
      for (let i = 2; taken.has(name); i++) name = `${wanted}_${i}`;
      if (name !== wanted) {
        sink.warn(joinPointer('/methods', written.length, 'name'), `method ${wanted} is declared by several models; this one is ${name}`);
      }
      taken.add(name);
      written.push(methodObject({ name, iface, method, names, mapping, errorRef }));
    }
  }
  return written;
}

/** `#/components/errors/<name>`: every declared error is a component, named as the IDL names it. */
function errorRef(error: ErrorDecl, names: ModelNames): string {
  return `#/components/errors/${names.errors.get(error.name.text)}`;
}

/**
 * The declared errors as `components.errors`, by name (OpenRPC errors have no name of their own):
 * the code and the declared message (on the wire the message is `<Name>: <detail or this message>`).
 */
function errorComponents(mapping: SchemaMapping): Record<string, Json> {
  const errors: Record<string, Json> = {};
  for (const { names, declaration: error } of mapping.once((n) => n.model.errors)) {
    // An error object has no place for a description (nor for extensions): the doc comment stays out.
    errors[names.errors.get(error.name.text)!] = { code: error.code, message: error.message };
  }
  return errors;
}
