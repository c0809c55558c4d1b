/**
 * The tools an MCP binding offers: one per exposed method, named like its OpenAPI operationId,
 * described by its doc comment and declared errors, with schemas from the IDL. Built once, when
 * the server is created; tools/list pages through this list and tools/call finds a tool by name.
 */
import type { IdlJson, IdlJsonError, IdlJsonMethod } from '../idl-json.js';
import type { MethodEntry } from '../method-table.js';
import { operationIdOf } from '../operation-id.js';
import type { ResultSerializer } from '../result-serializer.js';
import { idlSchemas } from '../schema.js';
import { ToolSchemas } from './tool-schemas.js';

/** A tool as tools/list sends it. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint: true };
}

/** A tool and what calling it needs. */
export interface Tool {
  definition: ToolDefinition;
  entry: MethodEntry;
  /** Whether results go out as `{ result }` (tool-schemas.ts). */
  wrapsResult: boolean;
  /** The method's result serializer, as the JSON-RPC binding writes its results; none: `JSON.stringify`. */
  serializer: ResultSerializer | undefined;
  /** Its declared errors by code: the name the IDL gives them (`CartEmpty`, `inventory.OutOfStock`). */
  declaredErrors: ReadonlyMap<number, string>;
}

/**
 * The exposed tools, in IDL order, keyed by name. `exposed` says which methods: an interface name
 * exposes its every method but stream methods (they are no tools; docs/mcp.md), an
 * `"<Interface>.<method>"` that method. Throws when a name is no interface or method of the IDL, or
 * names a stream method.
 */
export function buildTools(
  idl: IdlJson,
  methods: ReadonlyMap<string, MethodEntry>,
  exposed: readonly string[],
  serializers: ReadonlyMap<string, ResultSerializer>,
): Map<string, Tool> {
  const wanted = exposedMethods(idl, exposed);
  const tools = new Map<string, Tool>();
  if (wanted.size === 0) return tools;
  const schemas = new ToolSchemas(idlSchemas(idl));
  const errors = new Map((idl.errors ?? []).map((error) => [error.name, error] as const));
  const taken = new Set<string>();
  for (const iface of idl.interfaces ?? []) {
    for (const method of iface.methods ?? []) {
      // Every method takes its name in IDL order, exposed or not, so a tool's name never depends on the options.
      const name = operationIdOf(iface.name, method.name, taken);
      const key = `${iface.name}.${method.name}`;
      const entry = methods.get(key);
      if (!wanted.has(key) || entry === undefined) continue;
      const declared = declaredErrorsOf(idl, method, errors);
      const definition: ToolDefinition = {
        name,
        inputSchema: schemas.input(key, method),
        outputSchema: schemas.output(key, method),
      };
      const description = describe(method, declared);
      if (description !== '') definition.description = description;
      if (method.readonly) definition.annotations = { readOnlyHint: true };
      tools.set(name, {
        definition,
        entry,
        wrapsResult: schemas.wrapsResult(method),
        serializer: serializers.get(key),
        declaredErrors: new Map(declared.map(({ raised, error }) => [error.code, raised])),
      });
    }
  }
  return tools;
}

/** `"<Interface>.<method>"` of every method `exposed` names. */
function exposedMethods(idl: IdlJson, exposed: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const name of exposed) {
    const iface = (idl.interfaces ?? []).find((candidate) => candidate.name === name);
    if (iface !== undefined) {
      for (const method of iface.methods ?? []) if (method.stream !== true) keys.add(`${iface.name}.${method.name}`);
      continue;
    }
    const dot = name.lastIndexOf('.');
    const owner = (idl.interfaces ?? []).find((candidate) => candidate.name === name.slice(0, dot));
    const method = owner?.methods?.find((candidate) => candidate.name === name.slice(dot + 1));
    if (method === undefined) {
      throw new Error(`mcpBinding: expose names "${name}", which is no interface or "<Interface>.<method>" of the IDL`);
    }
    if (method.stream === true) {
      throw new Error(`mcpBinding: expose names "${name}", a stream method; stream methods are not MCP tools (docs/mcp.md)`);
    }
    keys.add(name);
  }
  return keys;
}

/** The method's declared errors: the name its `raises` gives and the IDL's error. */
function declaredErrorsOf(
  idl: IdlJson,
  method: IdlJsonMethod,
  errors: ReadonlyMap<string, IdlJsonError>,
): { raised: string; error: IdlJsonError }[] {
  const declared: { raised: string; error: IdlJsonError }[] = [];
  for (const raised of method.raises ?? []) {
    // `raises` names the root namespace's errors plainly, the errors' own names are qualified.
    const error = errors.get(raised) ?? errors.get(`${idl.rootNamespace}.${raised}`);
    if (error !== undefined) declared.push({ raised, error });
  }
  return declared;
}

/** The method's doc comment, then one line per declared error: name, code, message and its comment (when it happens). */
function describe(method: IdlJsonMethod, declared: readonly { raised: string; error: IdlJsonError }[]): string {
  const parts: string[] = [];
  if (method.comment !== undefined && method.comment.trim() !== '') parts.push(method.comment.trim());
  if (declared.length > 0) {
    const lines = declared.map(({ raised, error }) => {
      const when = error.comment?.trim().replace(/\s+/g, ' ');
      return `- ${raised} (code ${error.code}): ${error.message}${when ? `. ${when}` : ''}`;
    });
    parts.push(['Errors (an isError result whose text is {"code","name","message"}):', ...lines].join('\n'));
  }
  return parts.join('\n\n');
}
