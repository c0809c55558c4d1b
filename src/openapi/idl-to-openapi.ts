/**
 * IDL -> OpenAPI: describes the REST binding of checked IDL models (docs/protocol.md §3) as an OpenAPI
 * 3.1.0 (default) or 3.0.3 document.
 *
 * Every method becomes `POST /<Interface>/<method>` whose request body is an object of the named
 * parameters and whose `200` response is the result. Structs, enums and maps map as docs/openapi.md's
 * "Type mapping: IDL to OpenAPI" says. Several models share one document: see `docs/openapi.md`.
 */
import type { InterfaceDecl, Method, Parameter } from '../idl/ast.js';
import { defaultOf } from '../idl/attributes.js';
import { docDescription, docTags } from '../idl/doc-tags.js';
import type { IdlModel } from '../idl/model.js';
import { documentInfo } from './document-info.js';
import { ERROR_STATUS, EVENT_STREAM, EXTENSION, RPC_ERROR_MARKER, RPC_ERROR_SCHEMA_NAME } from './error-binding.js';
import { uncoveredModels } from './model-coverage.js';
import { isOpenApiReservedWord } from './reserved-words.js';
import { type ModelNames, SchemaMapping } from './schema-mapping.js';
import { type ConversionWarning, joinPointer, WarningSink } from './warnings.js';
import { operationIdOf } from '../../runtime/operation-id.js';

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
  /**
   * The HTTP status of declared errors by IDL name, as given to the server (`createRpcServer`'s
   * `httpStatus`, e.g. `{ Unauthorized: 401 }`). Each such error is listed under its status on every
   * operation (middleware may raise it for any call) instead of 422. Default none.
   */
  httpStatus?: Readonly<Record<string, number>>;
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

/**
 * Converts checked IDL models to one OpenAPI document.
 *
 * The declarations of imported files are named as the model names them (`common.Money`,
 * `inventory.InventoryService`). With several models, a model whose root file another one imports is
 * left out (that one describes it), and a declaration two models import from the same file is
 * described once. Type and interface names stay bare unless two models declare different ones of
 * the same name; then each model's copy is prefixed `<namespace>_` (schemas, tags, paths and
 * operationIds), with a warning.
 */
export function idlToOpenApi(models: IdlModel[], options: IdlToOpenApiOptions = {}): IdlToOpenApiResult {
  const result = new OpenApiWriter(uncoveredModels(models), options.version ?? '3.1', options.httpStatus ?? {}).write(
    options.infoVersion ?? '1.0.0',
  );
  const { document } = result;
  const info = document.info as Schema;
  if (options.contact !== undefined) info.contact = { ...options.contact };
  if (options.license !== undefined) info.license = { ...options.license };
  // Keep `servers` right after `info`, where readers look for it.
  const { openapi, info: _, ...rest } = document;
  result.document = { openapi, info, servers: [{ url: options.serverUrl ?? '/' }], ...rest };
  return result;
}

class OpenApiWriter {
  private readonly sink = new WarningSink();
  private readonly mapping: SchemaMapping;
  private readonly names: ModelNames[];
  private readonly errorSchemaName: string;

  constructor(
    private readonly models: IdlModel[],
    private readonly version: OpenApiVersion,
    private readonly httpStatus: Readonly<Record<string, number>>,
  ) {
    this.mapping = new SchemaMapping(models, version, this.sink, {
      interface: (name, iface) => (iface.methods.length > 0 ? joinPointer('/paths', `/${name}/${iface.methods[0].name.text}`) : '/tags'),
      errors: `/${EXTENSION.errors}`,
    });
    this.names = this.mapping.names;
    this.checkHttpStatus();
    this.errorSchemaName = this.mapping.reserveSchemaName(RPC_ERROR_SCHEMA_NAME);
  }

  write(infoVersion: string): IdlToOpenApiResult {
    const document: Record<string, unknown> = {
      openapi: this.version === '3.1' ? '3.1.0' : '3.0.3',
      info: documentInfo(this.models, infoVersion),
      // The binding has no authentication of its own (authentication is left to the deployment).
      security: [],
      tags: this.mapping
        .once((names) => names.model.interfaces)
        .map(({ names, declaration: iface }) => {
          const tag: Schema = {
            name: names.interfaces.get(iface.name.text),
            description: `IDL interface: ${iface.name.text}`,
          };
          if (iface.comment !== undefined) tag[EXTENSION.comment] = iface.comment;
          return tag;
        }),
      paths: this.paths(),
      components: { schemas: this.componentSchemas() },
    };
    const errors = this.mapping
      .once((names) => names.model.errors)
      .map(({ names, declaration: error }) => {
        const entry: Schema = { code: error.code, name: names.errors.get(error.name.text), message: error.message };
        const description = docDescription(error.comment);
        if (description !== undefined) entry.description = description;
        return entry;
      });
    if (errors.length > 0) document[EXTENSION.errors] = errors;
    return { document, warnings: this.sink.warnings };
  }

  private componentSchemas(): Record<string, Schema> {
    return this.mapping.componentSchemas({
      [this.errorSchemaName]: {
        type: 'object',
        description: 'The body of an error answer: the JSON-RPC error object of the call.',
        properties: {
          code: { type: 'integer', format: 'int64', description: 'JSON-RPC error code, or the code of a declared IDL error.' },
          message: { type: 'string', description: 'Begins with the error name for declared errors.' },
          data: { description: 'Optional details; clients must not depend on it.' },
        },
        required: ['code', 'message'],
        [RPC_ERROR_MARKER]: true,
      },
    });
  }

  private paths(): Record<string, Schema> {
    const paths: Record<string, Schema> = {};
    const operationIds = new Set<string>();
    for (const { names, declaration: iface } of this.mapping.once((n) => n.model.interfaces)) {
      const tag = names.interfaces.get(iface.name.text)!;
      for (const method of iface.methods) {
        const path = `/${tag}/${method.name.text}`;
        const pointer = joinPointer('/paths', path, 'post');
        paths[path] = { post: this.operation(iface, method, names, tag, this.operationId(tag, method, operationIds, pointer), pointer) };
      }
    }
    // After every POST has its id, so that adding a read never renames an operation.
    for (const { names, declaration: iface } of this.mapping.once((n) => n.model.interfaces)) {
      const tag = names.interfaces.get(iface.name.text)!;
      for (const method of iface.methods) {
        if (method.stream || !docTags(method.comment).readonly) continue;
        const item = paths[`/${tag}/${method.name.text}`];
        item.get = this.readOperation(item.post as Schema, method, names, operationIdOf(tag, `${method.name.text}_get`, operationIds));
      }
    }
    return paths;
  }

  /**
   * The GET form of a `@readonly` method's operation (docs/protocol.md, "Reads over GET"): the
   * POST's, with one query parameter per IDL parameter (its JSON text, as `content`), the ETag and
   * Cache-Control of a success, and 304 for a matching `If-None-Match`.
   */
  private readOperation(post: Schema, method: Method, names: ModelNames, operationId: string): Schema {
    const { requestBody: _body, responses, ...rest } = post;
    const parameters = method.parameters.map((parameter) => {
      const schema = this.mapping.typeSchema(parameter.type, names, false, parameter.attributes);
      return {
        name: parameter.name.text,
        in: 'query',
        required: parameter.optional !== true,
        description: 'The parameter as JSON text (a string in double quotes), percent-encoded.',
        content: { 'application/json': { schema: this.mapping.withDefault(schema, defaultOf(parameter.attributes)) } },
      };
    });
    const ok = (responses as Record<string, Schema>)['200'];
    const cacheHeaders = {
      ETag: {
        description: "The answer's entity tag: send it back in If-None-Match to get 304 while it holds.",
        schema: { type: 'string' },
      },
      'Cache-Control': {
        description: "How long caches may keep the answer (the server's `cache` option); absent when it sets none.",
        schema: { type: 'string' },
      },
    };
    return {
      ...rest,
      operationId,
      [EXTENSION.read]: true,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        ...(responses as Record<string, Schema>),
        '200': { ...ok, headers: cacheHeaders },
        '304': {
          description: 'Not modified: the If-None-Match header names the entity tag of the answer.',
          headers: { ETag: cacheHeaders.ETag },
        },
      },
    };
  }

  /** The `httpStatus` of a declared error, by its name in the document or in the IDL. */
  private statusOf(error: IdlModel['errors'][number], names: ModelNames): number | undefined {
    return this.httpStatus[names.errors.get(error.name.text) ?? error.name.text] ?? this.httpStatus[error.name.text];
  }

  /** The media type of a result: its schema, and the method's `@example` results (`example`, or `examples` when several). */
  private resultMedia(schema: Schema, examples: unknown[] | undefined): Schema {
    if (examples === undefined) return { schema };
    if (examples.length === 1) return { schema, example: examples[0] };
    return { schema, examples: Object.fromEntries(examples.map((value, i) => [`example${i + 1}`, { value }])) };
  }

  /**
   * The 200 answer of a stream method: `text/event-stream` (a string to OpenAPI 3.0 and 3.1), the
   * item's schema under `x-itemSchema` (OpenAPI 3.2's `itemSchema`), the events told in words.
   */
  private streamResponse(method: Method, names: ModelNames): Schema {
    return {
      description: [
        'A stream of results as Server-Sent Events: one `item` event per result, its `id:` the event id to resume from',
        '(send it back as `Last-Event-ID`) and its data the item as `x-itemSchema` describes it; then',
        'an `end` event, or an `error` event whose data is the error body. A `reconnect` event asks the client to POST the',
        'same request again with `Last-Event-ID`.',
      ].join('\n'),
      content: {
        [EVENT_STREAM]: {
          schema: { type: 'string' },
          [EXTENSION.itemSchema]: this.mapping.typeSchema(method.returnType, names, false, method.returnAttributes),
        },
      },
    };
  }

  /** Throws when `httpStatus` names no declared error or gives a status that is not an HTTP error. */
  private checkHttpStatus(): void {
    const known = new Set(
      this.names.flatMap((names) => names.model.errors.flatMap((e) => [e.name.text, names.errors.get(e.name.text) ?? e.name.text])),
    );
    for (const [name, status] of Object.entries(this.httpStatus)) {
      if (!known.has(name))
        throw new Error(
          `idlToOpenApi: httpStatus names "${name}", which is not an error of the IDL (errors: ${[...known].join(', ') || 'none'})`,
        );
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new Error(`idlToOpenApi: httpStatus.${name} must be an HTTP error status from 400 to 599, got ${JSON.stringify(status)}`);
      }
    }
  }

  /** A response of declared errors: the error body with `code` limited to theirs. */
  private declaredErrorResponse(heading: string, errors: IdlModel['errors'], names: ModelNames): Schema {
    return {
      description: [heading, ...errors.map((e) => `- ${e.code} ${names.errors.get(e.name.text)}: ${e.message}`)].join('\n'),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: this.mapping.ref(this.errorSchemaName) },
              { type: 'object', properties: { code: { type: 'integer', format: 'int64', enum: errors.map((e) => e.code) } } },
            ],
          },
        },
      },
    };
  }

  /** The operation's id by the runtime's rule (operationIdOf, shared with the MCP binding's tool names); a warning when it is suffixed. */
  private operationId(tag: string, method: Method, taken: Set<string>, pointer: string): string {
    const id = operationIdOf(tag, method.name.text, taken);
    const wanted = operationIdOf(tag, method.name.text, new Set());
    if (id !== wanted) this.sink.warn(joinPointer(pointer, 'operationId'), `operationId ${wanted} is taken; this operation is ${id}`);
    return id;
  }

  private operation(iface: InterfaceDecl, method: Method, names: ModelNames, tag: string, operationId: string, pointer: string): Schema {
    const operation: Schema = {
      operationId,
      tags: [tag],
      // Linters require a non-empty summary: the comment's first non-blank line, else the qualified name.
      summary:
        this.mapping
          .descriptionOf(method.comment)
          ?.split('\n')
          .find((line) => line.trim() !== '')
          ?.trim() ?? `${iface.name.text}.${method.name.text}`,
    };
    // Linters want a description on every operation; the exact comment (or its absence) travels in
    // x-idl-comment, as for tags, so that the default one is not read back as a comment.
    operation.description = this.mapping.descriptionOf(method.comment) ?? `IDL method: ${iface.name.text}.${method.name.text}`;
    if (method.comment !== undefined) operation[EXTENSION.comment] = method.comment;
    const tags = docTags(method.comment);
    // A deprecated interface deprecates each of its methods.
    if (tags.deprecated !== undefined || docTags(iface.comment).deprecated !== undefined) operation.deprecated = true;
    if (tags.readonly) operation[EXTENSION.readonly] = true;
    const properties: Record<string, Schema> = {};
    method.parameters.forEach((parameter, index) => {
      const schema = this.mapping.typeSchema(parameter.type, names, false, parameter.attributes);
      properties[parameter.name.text] = this.mapping.withDefault(schema, defaultOf(parameter.attributes));
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
        ? { type: 'object', properties, ...requiredOf(method.parameters), additionalProperties: false }
        : { type: 'object', additionalProperties: false };
    operation.requestBody = {
      required: true,
      description: method.parameters.length > 0 ? 'The named parameters of the call.' : 'No parameters: an empty object.',
      content: { 'application/json': { schema: bodySchema } },
    };
    const errorBody = { 'application/json': { schema: { $ref: this.mapping.ref(this.errorSchemaName) } } };
    const responses: Record<string, Schema> = {
      '200': method.stream
        ? this.streamResponse(method, names)
        : {
            description: method.returnOptional ? 'The result, or null.' : 'The result.',
            content: {
              'application/json': this.resultMedia(
                this.mapping.typeSchema(method.returnType, names, method.returnOptional, method.returnAttributes),
                tags.examples,
              ),
            },
          },
      [ERROR_STATUS.invalidRequest]: {
        description: 'The request or its parameters are invalid (JSON-RPC codes -32700, -32600, -32602).',
        content: errorBody,
      },
    };
    if (method.stream) {
      operation[EXTENSION.stream] = true;
      responses['406'] = {
        description: "The request's Accept header excludes text/event-stream, the only answer of a stream method (JSON-RPC code -32600).",
        content: errorBody,
      };
      responses['503'] = {
        description: 'The server has as many open streams as it allows (`maxStreams`); try again later (JSON-RPC code -32000).',
        content: errorBody,
      };
    }
    const raised = method.raises.map((name) => names.model.errorsByName.get(name.text)!);
    const unmapped = raised.filter((e) => this.statusOf(e, names) === undefined);
    if (unmapped.length > 0) responses[ERROR_STATUS.declared] = this.declaredErrorResponse('A declared error:', unmapped, names);
    // Errors with an `httpStatus`, under their status on every operation: middleware may raise them for any call.
    const byStatus = new Map<number, typeof raised>();
    for (const error of names.model.errors) {
      const status = this.statusOf(error, names);
      if (status !== undefined) byStatus.set(status, [...(byStatus.get(status) ?? []), error]);
    }
    for (const [status, errors] of [...byStatus].sort(([a], [b]) => a - b)) {
      responses[String(status)] = this.declaredErrorResponse('A declared error with its own HTTP status (`httpStatus`):', errors, names);
    }
    if (raised.length > 0) operation[EXTENSION.raises] = raised.map((e) => names.errors.get(e.name.text));
    responses[ERROR_STATUS.internal] = {
      description: 'The handler failed (JSON-RPC code -32603).',
      content: errorBody,
    };
    operation.responses = responses;
    return operation;
  }
}

/** `required`: the parameters callers may not leave out (none: no member, as OpenAPI wants a non-empty list). */
function requiredOf(parameters: readonly Parameter[]): { required?: string[] } {
  const required = parameters.filter((p) => !p.optional).map((p) => p.name.text);
  return required.length > 0 ? { required } : {};
}
