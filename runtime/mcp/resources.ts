/**
 * The binding's resources (MCP "Resources"): the API's descriptions an agent may read, each given
 * to `mcpBinding({ resources })` as text or a document: the IDL source, the OpenAPI document and
 * the OpenRPC document. Fixed at start-up (no subscriptions, no templates); each serialized once.
 */

/** What `mcpBinding({ resources })` takes; each is left out when not given. */
export interface McpResources {
  /** The IDL's source text (e.g. `readFileSync('checkout.idl', 'utf8')`). */
  idl?: string;
  /** The OpenAPI document (e.g. the `openapi.json` a build wrote). */
  openApi?: object;
  /** The OpenRPC document (e.g. the `openrpc.json` a build wrote). */
  openRpc?: object;
}

/** A resource as resources/list sends it, with its text for resources/read. */
export interface Resource {
  listed: { uri: string; name: string; title: string; description: string; mimeType: string };
  text: string;
}

/** The resources of one binding, by URI, in the order idl, openApi, openRpc. */
export function buildResources(rootNamespace: string, given: McpResources | undefined): Map<string, Resource> {
  const resources = new Map<string, Resource>();
  const add = (file: string, title: string, description: string, mimeType: string, text: string) => {
    const uri = `idlrpc://${encodeURIComponent(rootNamespace)}/${file}`;
    resources.set(uri, { listed: { uri, name: file, title, description, mimeType }, text });
  };
  if (given?.idl !== undefined) {
    if (typeof given.idl !== 'string') throw new Error('mcpBinding: resources.idl must be the IDL source text (a string)');
    add('source.idl', 'IDL', 'The IDL the tools are made of: types, methods, errors and their doc comments.', 'text/plain', given.idl);
  }
  if (given?.openApi !== undefined) {
    add(
      'openapi.json',
      'OpenAPI document',
      'The REST binding of the same API.',
      'application/json',
      documentText('openApi', given.openApi),
    );
  }
  if (given?.openRpc !== undefined) {
    add('openrpc.json', 'OpenRPC document', 'The JSON-RPC API.', 'application/json', documentText('openRpc', given.openRpc));
  }
  return resources;
}

function documentText(option: string, document: unknown): string {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new Error(`mcpBinding: resources.${option} must be a JSON document (an object)`);
  }
  return JSON.stringify(document, null, 2);
}
