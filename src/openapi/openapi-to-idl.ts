/**
 * OpenAPI -> IDL: reads an OpenAPI 3.0/3.1 document (YAML or JSON, with local `$ref`s), converts
 * its schemas and operations, and prints the result with the compiler's formatter.
 *
 * Order of the output: namespace, the component schemas' structs and enums (document order) with
 * hoisted inline structs where they are first reached, the declared errors (documents written by
 * `idlToOpenApi` only), then the interfaces in the order of their first operation.
 */
import { resolve } from 'node:path';
import type { ErrorDecl, IdlFile } from '../idl/ast.js';
import { syntheticSpan } from '../idl/format.js';
import { BinaryDrops } from './binary-data.js';
import { convertedIdlFile } from './converted-file.js';
import { EXTENSION } from './error-binding.js';
import { isValidIdentifier, NameScope, namespaceByRule, namespaceName } from './names.js';
import { OperationConverter, type PrefixedMethods } from './operation-converter.js';
import { type ConversionContext, docComment, isObject, SchemaConverter } from './schema-converter.js';
import { parseDocumentText, SourceDocuments } from './source-documents.js';
import { ConversionError, type ConversionWarning, joinPointer, WarningSink } from './warnings.js';

/** The document to convert: its text (YAML or JSON) or an already parsed object. */
export interface OpenApiInput {
  text?: string;
  document?: unknown;
  /**
   * The document's file name: decides JSON vs YAML for `text`, names the output in messages, and
   * (resolved against `baseDir` or the working directory) anchors `$ref`s to other files.
   */
  fileName?: string;
  /** Folder for `$ref`s to other files when there is no `fileName`. */
  baseDir?: string;
  /**
   * Further folders that `$ref`s may reach files in (relative ones against `baseDir` or the working
   * directory). Without them a referenced file must be inside the root document's folder (or
   * `baseDir`), compared after following symlinks.
   */
  refRoots?: readonly string[];
}

export interface OpenApiToIdlOptions {
  /**
   * Binary data (`format: binary`) cannot travel in JSON-RPC. `error` (default): the conversion
   * fails with one BinaryDataError that lists every such place (what `drop` would drop there).
   * `drop`: a struct field of binary data is dropped, an operation whose parameters, body or result
   * are binary is dropped, a binary component schema becomes `string`, each with a warning.
   */
  binary?: 'error' | 'drop';
  /** File name given to the IDL (spans, messages). Default: the input's name with `.idl`. */
  idlFileName?: string;
  /**
   * How methods are named (docs/openapi.md, "Names"). `http-method-prefix` (default): the IDL
   * family's rule, `<http method><OperationId>` (`getPetById` -> `getGetPetById`).
   * `operation-id`: the operationId alone (made an identifier as by the default rule) where no other
   * operation of the same interface has the same one; an operation without an operationId, or whose
   * operationId another operation of its interface shares, is named by the default rule.
   */
  methodNames?: MethodNaming;
}

/** How `openApiToIdl` names methods; see {@link OpenApiToIdlOptions.methodNames}. */
export type MethodNaming = 'http-method-prefix' | 'operation-id';

/** Every {@link MethodNaming}, the default first. */
export const METHOD_NAMINGS: readonly MethodNaming[] = ['http-method-prefix', 'operation-id'];

export interface OpenApiToIdlResult {
  /** The IDL text, printed by `printIdl`. */
  idl: string;
  /** The syntax tree that was printed (nodes carry synthetic spans). */
  file: IdlFile;
  warnings: ConversionWarning[];
  /**
   * The methods named `<http method><OperationId>` from an operationId (by the default
   * `methodNames`): how many, and the first, for a hint that `operation-id` would keep the
   * operationId alone. Absent when there is none.
   */
  prefixedMethods?: PrefixedMethods;
}

/**
 * Converts an OpenAPI 3.0.x or 3.1.x document to IDL.
 *
 * @throws ConversionError (with a JSON pointer) for invalid YAML/JSON, a document that is not
 *   OpenAPI 3.0/3.1 (Swagger 2.0 included), a remote, unresolvable or out-of-bounds `$ref`, or
 *   arrays/maps nested deeper than the IDL allows; BinaryDataError (a ConversionError listing every
 *   place) for binary data, unless `binary: 'drop'`.
 */
export function openApiToIdl(input: OpenApiInput, options: OpenApiToIdlOptions = {}): OpenApiToIdlResult {
  // Without a name, the text alone decides between JSON and YAML.
  const fileName = input.fileName ?? 'openapi';
  const content = input.document !== undefined ? input.document : parseDocumentText(input.text ?? '', fileName);
  checkVersion(content);
  const rootPath = input.fileName !== undefined ? resolve(input.baseDir ?? process.cwd(), input.fileName) : undefined;
  const idlFileName = options.idlFileName ?? fileName.replace(/\.(ya?ml|json)$/i, '') + '.idl';
  const info = (content as Record<string, unknown>).info;
  const sink = new WarningSink();
  const ownDocument = isObject(info) && typeof info[EXTENSION.namespace] === 'string';
  const ctx: ConversionContext = {
    documents: new SourceDocuments(content, rootPath, input.baseDir, input.refRoots),
    sink,
    topNames: new NameScope(),
    span: syntheticSpan(idlFileName),
    keepIdentifiers: ownDocument,
    ownDocument,
    binary: new BinaryDrops(options.binary ?? 'error', sink),
    examplePointers: new Map(),
  };

  const errors = ctx.keepIdentifiers ? declaredErrors(content as Record<string, unknown>, ctx) : [];
  const schemas = new SchemaConverter(ctx);
  const operations = new OperationConverter(
    ctx,
    schemas,
    new Set(errors.map((e) => e.name.text)),
    options.methodNames ?? 'http-method-prefix',
  );
  schemas.claimComponentNames();
  operations.claimInterfaceNames();
  schemas.convertComponents();
  const interfaces = operations.convert();
  schemas.finish();
  ctx.binary.throwIfAny();
  schemas.removeUnreferenced(interfaces);
  warnDropped(content as Record<string, unknown>, sink);

  const { idl, file } = convertedIdlFile(
    {
      fileName: idlFileName,
      namespace: namespaceOf(info, sink, ctx.ownDocument),
      comment: docComment(
        isObject(info) ? (ctx.keepIdentifiers ? info[EXTENSION.comment] : info.description) : undefined,
        ctx.keepIdentifiers,
      ),
      types: schemas.declarations,
      errors,
      interfaces,
    },
    ctx,
    sink,
  );
  const prefixedMethods = operations.prefixedMethods();
  return prefixedMethods ? { idl, file, warnings: sink.warnings, prefixedMethods } : { idl, file, warnings: sink.warnings };
}

/** Only OpenAPI 3.0.x and 3.1.x are converted; anything else is refused, naming what it is. */
function checkVersion(content: unknown): void {
  if (!isObject(content)) throw new ConversionError('', 'not an OpenAPI document: the top level is not an object');
  if (content.swagger !== undefined) {
    throw new ConversionError(
      '/swagger',
      `Swagger ${String(content.swagger)} documents are not supported: convert the document to OpenAPI 3.0 or 3.1 first`,
    );
  }
  const version = content.openapi;
  if (typeof version !== 'string') throw new ConversionError('', 'not an OpenAPI document: the "openapi" version field is missing');
  if (!/^3\.[01]\.\d+/.test(version)) {
    throw new ConversionError('/openapi', `OpenAPI ${version} is not supported: only 3.0.x and 3.1.x documents are converted`);
  }
  if (content.paths !== undefined && !isObject(content.paths))
    throw new ConversionError('/paths', 'invalid document: paths is not an object');
  if (content.components !== undefined && !isObject(content.components)) {
    throw new ConversionError('/components', 'invalid document: components is not an object');
  }
}

/**
 * The namespace: our own `x-idl-namespace` (`ownDocument`), else `info.title` by the IDL family's
 * rule (warned when it had to be adjusted). The OpenRPC converter names its namespace the same way.
 */
export function namespaceOf(info: unknown, sink: WarningSink, ownDocument: boolean): string {
  if (
    ownDocument &&
    isObject(info) &&
    typeof info[EXTENSION.namespace] === 'string' &&
    isValidIdentifier(info[EXTENSION.namespace] as string)
  ) {
    return info[EXTENSION.namespace] as string;
  }
  const title = isObject(info) && typeof info.title === 'string' ? info.title : '';
  const name = namespaceName(title);
  if (name !== namespaceByRule(title)) sink.warn('/info/title', `title "${title}" adjusted to the namespace ${name} (a valid identifier)`);
  return name;
}

/** The `x-idl-errors` list of a document written by `idlToOpenApi`. */
function declaredErrors(content: Record<string, unknown>, ctx: ConversionContext): ErrorDecl[] {
  const list = content[EXTENSION.errors];
  if (!Array.isArray(list)) return [];
  const errors: ErrorDecl[] = [];
  const names = new Set<string>();
  list.forEach((entry, i) => {
    if (
      !isObject(entry) ||
      typeof entry.name !== 'string' ||
      !isValidIdentifier(entry.name) ||
      !Number.isInteger(entry.code) ||
      names.has(entry.name)
    ) {
      ctx.sink.warn(`/${EXTENSION.errors}/${i}`, 'declared error entry is not { code, name, message }; dropped');
      return;
    }
    names.add(entry.name);
    const message = typeof entry.message === 'string' ? entry.message : '';
    const error: ErrorDecl = {
      code: entry.code as number,
      codeSpan: ctx.span,
      name: { text: entry.name, span: ctx.span },
      message,
      span: ctx.span,
    };
    const comment = docComment(entry.description, ctx.keepIdentifiers);
    if (comment !== undefined) error.comment = comment;
    errors.push(error);
  });
  return errors;
}

/** Security schemes and webhooks have no IDL counterpart: each is dropped with a warning. */
function warnDropped(content: Record<string, unknown>, sink: WarningSink): void {
  const components = content.components;
  const schemes = isObject(components) ? components.securitySchemes : undefined;
  if (isObject(schemes)) {
    for (const name of Object.keys(schemes)) {
      sink.warn(joinPointer('/components/securitySchemes', name), `security scheme "${name}" dropped: the IDL describes no authentication`);
    }
  }
  if (isObject(content.webhooks)) {
    for (const name of Object.keys(content.webhooks)) {
      sink.warn(joinPointer('/webhooks', name), `webhook "${name}" dropped: the IDL describes no callbacks`);
    }
  }
}
