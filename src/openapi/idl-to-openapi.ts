/**
 * IDL -> OpenAPI: describes the REST binding of checked IDL models (docs/protocol.md §3) as an OpenAPI
 * 3.1.0 (default) or 3.0.3 document.
 *
 * Every method becomes `POST /<Interface>/<method>` whose request body is an object of the named
 * parameters and whose `200` response is the result. Structs, enums and maps map as docs/openapi.md's
 * "Type mapping: IDL to OpenAPI" says. Several models share one document: see `docs/openapi.md`.
 */
import type { EnumDecl, InterfaceDecl, Method, StructDecl, TypeRef } from '../idl/ast.js';
import type { IdlModel } from '../idl/model.js';
import { ERROR_STATUS, EXTENSION, RPC_ERROR_MARKER, RPC_ERROR_SCHEMA_NAME } from './error-binding.js';
import { isOpenApiReservedWord } from './reserved-words.js';
import { type ConversionWarning, joinPointer, WarningSink } from './warnings.js';

export type OpenApiVersion = '3.1' | '3.0';

export interface IdlToOpenApiOptions {
  /** `3.1` (default) writes OpenAPI 3.1.0, `3.0` writes 3.0.3. */
  version?: OpenApiVersion;
  /** `info.version`; the IDL has no version of its own. Default `1.0.0`. */
  infoVersion?: string;
  /**
   * `servers[0].url`: the base address the binding is served under. Default `/`, which is what
   * OpenAPI assumes without `servers` (relative to the address the document came from): only the
   * deployment knows the real one, but linters require the member.
   */
  serverUrl?: string;
  /** `info.license`; the IDL has none, so it is left out by default. */
  license?: OpenApiLicense;
  /** `info.contact`; the IDL has none, so it is left out by default. */
  contact?: OpenApiContact;
}

/** The OpenAPI License Object (`identifier` is 3.1 only). */
export interface OpenApiLicense {
  name: string;
  url?: string;
  identifier?: string;
}

/** The OpenAPI Contact Object. */
export interface OpenApiContact {
  name?: string;
  url?: string;
  email?: string;
}

export interface IdlToOpenApiResult {
  /** A plain JSON-serializable OpenAPI document. */
  document: Record<string, unknown>;
  /** Pointers are into `document`. */
  warnings: ConversionWarning[];
}

type Schema = Record<string, unknown>;

/** 2^53 − 1: the largest integer the runtime accepts for `int` (docs/protocol.md). */
const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

/**
 * Converts checked IDL models to one OpenAPI document.
 *
 * With several models, type and interface names stay bare unless two models declare the same one;
 * then each model's copy is prefixed `<namespace>_` (schemas, tags, paths and operationIds), with a
 * warning.
 */
export function idlToOpenApi(models: IdlModel[], options: IdlToOpenApiOptions = {}): IdlToOpenApiResult {
  const result = new OpenApiWriter(models, options.version ?? '3.1').write(options.infoVersion ?? '1.0.0');
  const { document } = result;
  const info = document.info as Schema;
  if (options.contact !== undefined) info.contact = { ...options.contact };
  if (options.license !== undefined) info.license = { ...options.license };
  // Keep `servers` right after `info`, where readers look for it.
  const { openapi, info: _, ...rest } = document;
  result.document = { openapi, info, servers: [{ url: options.serverUrl ?? '/' }], ...rest };
  return result;
}

/** How a type of the IDL is written in the document being built. */
interface ModelNames {
  model: IdlModel;
  /** IDL type name -> component schema name. */
  schemas: Map<string, string>;
  /** IDL interface name -> tag / first path segment. */
  interfaces: Map<string, string>;
  /** IDL error name -> name in `x-idl-errors`. */
  errors: Map<string, string>;
}

class OpenApiWriter {
  private readonly sink = new WarningSink();
  private readonly names: ModelNames[];
  private readonly errorSchemaName: string;

  constructor(
    private readonly models: IdlModel[],
    private readonly version: OpenApiVersion,
  ) {
    this.names = this.assignNames();
    const taken = new Set(this.names.flatMap((n) => [...n.schemas.values()]));
    let errorSchemaName = RPC_ERROR_SCHEMA_NAME;
    for (let i = 2; taken.has(errorSchemaName); i++) errorSchemaName = `${RPC_ERROR_SCHEMA_NAME}_${i}`;
    this.errorSchemaName = errorSchemaName;
  }

  write(infoVersion: string): IdlToOpenApiResult {
    const document: Record<string, unknown> = {
      openapi: this.version === '3.1' ? '3.1.0' : '3.0.3',
      info: this.info(infoVersion),
      // The binding has no authentication of its own (authentication is left to the deployment).
      security: [],
      tags: this.names.flatMap((names) =>
        names.model.interfaces.map((iface) => {
          const tag: Schema = {
            name: names.interfaces.get(iface.name.text),
            description: `IDL interface: ${iface.name.text}`,
          };
          if (iface.comment !== undefined) tag[EXTENSION.comment] = iface.comment;
          return tag;
        }),
      ),
      paths: this.paths(),
      components: { schemas: this.schemas() },
    };
    const errors = this.names.flatMap((names) =>
      names.model.errors.map((error) => {
        const entry: Schema = { code: error.code, name: names.errors.get(error.name.text), message: error.message };
        if (error.comment !== undefined) entry.description = error.comment;
        return entry;
      }),
    );
    if (errors.length > 0) document[EXTENSION.errors] = errors;
    return { document, warnings: this.sink.warnings };
  }

  /** Bare names, except where two models declare the same name: then `<namespace>_<Name>` for all of them. */
  private assignNames(): ModelNames[] {
    const count = (list: string[][]) => {
      const counts = new Map<string, number>();
      for (const name of list.flat()) counts.set(name, (counts.get(name) ?? 0) + 1);
      return counts;
    };
    const typeCounts = count(this.models.map((m) => [...m.types.keys()]));
    const interfaceCounts = count(this.models.map((m) => m.interfaces.map((i) => i.name.text)));
    const errorCounts = count(this.models.map((m) => m.errors.map((e) => e.name.text)));
    /** The name in the document; `where` gives the pointer of what carries the prefixed name. */
    const name = (model: IdlModel, bare: string, counts: Map<string, number>, what: string, where: (prefixed: string) => string) => {
      if ((counts.get(bare) ?? 0) < 2) return bare;
      const prefixed = `${model.namespace}_${bare}`;
      this.sink.warn(
        where(prefixed),
        `${what} ${bare} is declared in several namespaces; namespace ${model.namespace} writes it as ${prefixed}`,
      );
      return prefixed;
    };
    return this.models.map((model) => ({
      model,
      schemas: new Map(
        [...model.types.keys()].map((t) => [t, name(model, t, typeCounts, 'type', (p) => joinPointer('/components/schemas', p))]),
      ),
      interfaces: new Map(
        model.interfaces.map((i) => [
          i.name.text,
          name(model, i.name.text, interfaceCounts, 'interface', (p) =>
            i.methods.length > 0 ? joinPointer('/paths', `/${p}/${i.methods[0].name.text}`) : '/tags',
          ),
        ]),
      ),
      errors: new Map(model.errors.map((e) => [e.name.text, name(model, e.name.text, errorCounts, 'error', () => `/${EXTENSION.errors}`)])),
    }));
  }

  private info(infoVersion: string): Schema {
    const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const info: Schema = {
      title: this.models.map((m) => capitalize(m.namespace)).join(', ') || 'IDL',
      description: this.models
        .map((m) =>
          [
            `Namespace: ${m.namespace}`,
            `Interfaces: ${m.interfaces.length}`,
            `Structs: ${m.structs.length}`,
            `Enums: ${m.enums.length}`,
          ].join('\n'),
        )
        .join('\n\n'),
      version: infoVersion,
    };
    if (this.models.length === 1) {
      info[EXTENSION.namespace] = this.models[0].namespace;
      if (this.models[0].namespaceComment !== undefined) info[EXTENSION.comment] = this.models[0].namespaceComment;
    }
    return info;
  }

  private schemas(): Record<string, Schema> {
    const schemas: Record<string, Schema> = {};
    for (const names of this.names) {
      // Enums and structs interleaved as in the source.
      for (const decl of [...names.model.enums, ...names.model.structs].sort((a, b) => a.span.start.offset - b.span.start.offset)) {
        schemas[names.schemas.get(decl.name.text)!] = decl.kind === 'enum' ? this.enumSchema(decl) : this.structSchema(decl, names);
      }
    }
    schemas[this.errorSchemaName] = {
      type: 'object',
      description: 'The body of an error answer: the JSON-RPC error object of the call.',
      properties: {
        code: { type: 'integer', format: 'int64', description: 'JSON-RPC error code, or the code of a declared IDL error.' },
        message: { type: 'string', description: 'Begins with the error name for declared errors.' },
        data: { description: 'Optional details; clients must not depend on it.' },
      },
      required: ['code', 'message'],
      [RPC_ERROR_MARKER]: true,
    };
    return schemas;
  }

  private enumSchema(decl: EnumDecl): Schema {
    const schema: Schema = { type: 'string' };
    if (decl.comment !== undefined) schema.description = decl.comment;
    schema.enum = decl.values.map((v) => v.name.text);
    if (decl.values.some((v) => v.comment !== undefined)) {
      // null: no comment (an empty string is a comment of one empty line).
      schema[EXTENSION.enumDescriptions] = decl.values.map((v) => v.comment ?? null);
    }
    return schema;
  }

  private structSchema(decl: StructDecl, names: ModelNames): Schema {
    const own: Schema = { type: 'object' };
    const properties: Record<string, Schema> = {};
    for (const field of decl.fields) {
      properties[field.name.text] = this.describe(this.typeSchema(field.type, names, field.optional), field.comment);
    }
    if (decl.fields.length > 0) own.properties = properties;
    const required = decl.fields.filter((f) => !f.optional).map((f) => f.name.text);
    if (required.length > 0) own.required = required;
    if (decl.extends === undefined) return this.describe(own, decl.comment);
    const parent = { $ref: this.ref(names.schemas.get(decl.extends.text)!) };
    return this.describe({ type: 'object', allOf: [parent, own] }, decl.comment);
  }

  /** Adds a description; in 3.0 a `$ref` cannot have siblings, so it is wrapped in `allOf`. */
  private describe(schema: Schema, description: string | undefined): Schema {
    if (description === undefined) return schema;
    if ('$ref' in schema && this.version === '3.0') return { allOf: [schema], description };
    return { ...schema, description };
  }

  private ref(schemaName: string): string {
    return `#/components/schemas/${schemaName}`;
  }

  /** The schema of an IDL type; `nullable` when the value may be null (`[optional]`). */
  private typeSchema(type: TypeRef, names: ModelNames, nullable = false): Schema {
    const schema = this.plainTypeSchema(type, names);
    if (!nullable) return schema;
    if (this.version === '3.1') {
      if ('$ref' in schema) return { oneOf: [schema, { type: 'null' }] };
      return { ...schema, type: [schema.type, 'null'] };
    }
    if ('$ref' in schema) {
      // 3.0.3 forbids siblings of $ref, and `nullable` only adds null to a `type` in the same schema:
      // it does not reach into `allOf`/`oneOf` members, so `{nullable, allOf: [$ref]}` still forbids
      // null. The null alternative is its own member, `nullable` beside `type` with `enum: [null]`
      // (the OAI's own reading of 3.0.3), which validators and generators read as "T or null".
      // `anyOf`, not `oneOf`: linters that ignore `enum` would see two overlapping object schemas.
      const target = type.kind === 'named' ? names.model.types.get(type.name) : undefined;
      return { anyOf: [schema, { type: target?.kind === 'enum' ? 'string' : 'object', nullable: true, enum: [null] }] };
    }
    return { ...schema, nullable: true };
  }

  private plainTypeSchema(type: TypeRef, names: ModelNames): Schema {
    switch (type.kind) {
      case 'builtIn':
        switch (type.name) {
          case 'string':
            return { type: 'string' };
          case 'int':
            // The wire carries JSON numbers; the runtime rejects integers a double cannot hold exactly.
            return { type: 'integer', format: 'int64', minimum: -MAX_SAFE_INT, maximum: MAX_SAFE_INT };
          case 'float':
            return { type: 'number', format: 'double' };
          case 'bool':
            return { type: 'boolean' };
        }
        break;
      case 'array':
        return { type: 'array', items: this.plainTypeSchema(type.element, names) };
      case 'map':
        return { type: 'object', additionalProperties: this.plainTypeSchema(type.value, names) };
      case 'named':
        return { $ref: this.ref(names.schemas.get(type.name)!) };
    }
    throw new Error(`unknown IDL type ${JSON.stringify(type)}`);
  }

  private paths(): Record<string, Schema> {
    const paths: Record<string, Schema> = {};
    for (const names of this.names) {
      for (const iface of names.model.interfaces) {
        const tag = names.interfaces.get(iface.name.text)!;
        for (const method of iface.methods) {
          const path = `/${tag}/${method.name.text}`;
          paths[path] = { post: this.operation(iface, method, names, tag, joinPointer('/paths', path, 'post')) };
        }
      }
    }
    return paths;
  }

  private operation(iface: InterfaceDecl, method: Method, names: ModelNames, tag: string, pointer: string): Schema {
    const operation: Schema = {
      operationId: `${tag}_${method.name.text}`,
      tags: [tag],
      // Linters require a non-empty summary: the comment's first non-blank line, else the qualified name.
      summary:
        method.comment
          ?.split('\n')
          .find((line) => line.trim() !== '')
          ?.trim() ?? `${iface.name.text}.${method.name.text}`,
    };
    // Linters want a description on every operation; the exact comment (or its absence) travels in
    // x-idl-comment, as for tags, so that the default one is not read back as a comment.
    operation.description = method.comment ?? `IDL method: ${iface.name.text}.${method.name.text}`;
    if (method.comment !== undefined) operation[EXTENSION.comment] = method.comment;
    const properties: Record<string, Schema> = {};
    method.parameters.forEach((parameter, index) => {
      properties[parameter.name.text] = this.typeSchema(parameter.type, names);
      if (isOpenApiReservedWord(parameter.name.text)) {
        this.sink.warn(
          joinPointer(pointer, 'requestBody', 'content', 'application/json', 'schema', 'properties', parameter.name.text),
          `parameter ${parameter.name.text} (${index + 1} of ${iface.name.text}.${method.name.text}) is an OpenAPI reserved word; clients generated from this document may rename it`,
        );
      }
    });
    // The runtime answers 400 `unknown parameter` to any other member. A method without parameters
    // still takes a (`{}`) body: the runtime answers 415 to a request without a JSON Content-Type.
    const bodySchema: Schema =
      method.parameters.length > 0
        ? { type: 'object', properties, required: method.parameters.map((p) => p.name.text), additionalProperties: false }
        : { type: 'object', additionalProperties: false };
    operation.requestBody = {
      required: true,
      description: method.parameters.length > 0 ? 'The named parameters of the call.' : 'No parameters: an empty object.',
      content: { 'application/json': { schema: bodySchema } },
    };
    const errorBody = { 'application/json': { schema: { $ref: this.ref(this.errorSchemaName) } } };
    const responses: Record<string, Schema> = {
      '200': {
        description: method.returnOptional ? 'The result, or null.' : 'The result.',
        content: { 'application/json': { schema: this.typeSchema(method.returnType, names, method.returnOptional) } },
      },
      [ERROR_STATUS.invalidRequest]: {
        description: 'The request or its parameters are invalid (JSON-RPC codes -32700, -32600, -32602).',
        content: errorBody,
      },
    };
    if (method.raises.length > 0) {
      const raised = method.raises.map((name) => names.model.errorsByName.get(name.text)!);
      responses[ERROR_STATUS.declared] = {
        description: ['A declared error:', ...raised.map((e) => `- ${e.code} ${names.errors.get(e.name.text)}: ${e.message}`)].join('\n'),
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: this.ref(this.errorSchemaName) },
                {
                  type: 'object',
                  properties: { code: { type: 'integer', format: 'int64', enum: raised.map((e) => e.code) } },
                },
              ],
            },
          },
        },
      };
      operation[EXTENSION.raises] = raised.map((e) => names.errors.get(e.name.text));
    }
    responses[ERROR_STATUS.internal] = {
      description: 'The handler failed (JSON-RPC code -32603).',
      content: errorBody,
    };
    operation.responses = responses;
    return operation;
  }
}
