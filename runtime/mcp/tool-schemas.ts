/**
 * A tool's `inputSchema` and `outputSchema` (MCP requires both to be JSON Schema objects), made of
 * the runtime's one IDL -> schema mapping (schema.ts) so a tool accepts what the method's
 * validators accept. Named types become `$defs` of the tool's schema (only those it reaches), their
 * references `#/$defs/<Name>`, so each schema stands alone for the agent and for the SDK's checker.
 */
import type { TSchema } from '@sinclair/typebox';
import type { IdlJsonMethod } from '../idl-json.js';
import type { IdlSchemas } from '../schema.js';

type JsonSchema = Record<string, unknown>;

/** The property a result that is not an object is wrapped in (`{ "result": ... }`). */
export const RESULT_PROPERTY = 'result';

/** Builds the schemas of tools from one IDL's schemas. */
export class ToolSchemas {
  private readonly named: ReadonlyMap<string, TSchema>;

  constructor(private readonly schemas: IdlSchemas) {
    this.named = new Map(schemas.references.map((schema) => [schema.$id as string, schema]));
  }

  /** An object of the method's parameters; required unless `[optional]` or defaulted. */
  input(methodName: string, method: IdlJsonMethod): JsonSchema {
    const params = this.schemas.methods[methodName].params;
    const properties: JsonSchema = {};
    const required: string[] = [];
    const reached = new Set<string>();
    (method.parameters ?? []).forEach((parameter, index) => {
      properties[parameter.name] = this.plain(params[index], reached);
      if (!parameter.optional && !('default' in parameter)) required.push(parameter.name);
    });
    return this.withDefinitions({ type: 'object', properties, required }, reached);
  }

  /**
   * The result as an object: a struct's own schema, anything else (enum, union, array, map,
   * built-in, `[optional]` return) wrapped as `{ result }` (see `wrapsResult`).
   */
  output(methodName: string, method: IdlJsonMethod): JsonSchema {
    const reached = new Set<string>();
    const result = this.plain(this.schemas.methods[methodName].result, reached);
    const schema = this.wrapsResult(method)
      ? { type: 'object', properties: { [RESULT_PROPERTY]: result }, required: [RESULT_PROPERTY] }
      : { type: 'object', allOf: [result] };
    return this.withDefinitions(schema, reached);
  }

  /** Whether the method's result goes out as `{ result: <value> }`: it is not certainly a JSON object. */
  wrapsResult(method: IdlJsonMethod): boolean {
    if (method.returnOptional || !('userDefined' in method.returnType)) return true;
    const named = this.named.get(method.returnType.userDefined);
    // A struct is an object (or an intersection of objects, with `extends`); enums and unions are not certainly.
    return named === undefined || !(named.type === 'object' || named.allOf !== undefined);
  }

  /** `$defs` of every named type reached, followed through the named types themselves. */
  private withDefinitions(schema: JsonSchema, reached: Set<string>): JsonSchema {
    if (reached.size === 0) return schema;
    const definitions: JsonSchema = {};
    for (const name of reached) {
      const named = this.named.get(name);
      if (named !== undefined) {
        const { $id: _, ...plain } = this.plain(named, reached) as JsonSchema;
        definitions[name] = plain;
      }
    }
    return { ...schema, $defs: definitions };
  }

  /** A TypeBox schema as plain JSON, `$ref`s pointing into `$defs`; the names it refers to are added to `reached`. */
  private plain(schema: unknown, reached: Set<string>): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.plain(item, reached));
    if (typeof schema !== 'object' || schema === null) return schema;
    const plain: JsonSchema = {};
    // Object.entries leaves out TypeBox's symbol keys ([Kind], [OptionalKind]).
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') {
        reached.add(value);
        plain.$ref = `#/$defs/${encodeURIComponent(value)}`;
      } else {
        plain[key] = this.plain(value, reached);
      }
    }
    return plain;
  }
}
