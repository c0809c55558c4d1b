/**
 * OpenRPC -> IDL: reads an OpenRPC 1.x document (JSON or YAML, references into itself only),
 * converts its methods, errors and schemas, and prints the result with the compiler's formatter.
 * Schemas go through the OpenAPI converter's schema conversion (OpenRPC's schemas are JSON Schema
 * draft-07, which it reads). Rules: docs/openrpc.md, "OpenRPC -> IDL".
 *
 * Order of the output: namespace, the component schemas' structs and enums (document order) with
 * hoisted inline structs where they are first reached, the declared errors, then the interfaces in
 * the order of their first method.
 */
import type { IdlFile, TypeRef } from '../idl/ast.js';
import { printType, syntheticSpan } from '../idl/format.js';
import { BinaryDrops } from '../openapi/binary-data.js';
import { convertedIdlFile } from '../openapi/converted-file.js';
import { EXTENSION } from '../openapi/error-binding.js';
import { NameScope } from '../openapi/names.js';
import { namespaceOf } from '../openapi/openapi-to-idl.js';
import { type ConversionContext, docComment, isObject, SchemaConverter } from '../openapi/schema-converter.js';
import { displayPointer, type Location, parseDocumentText, valueAt } from '../openapi/source-documents.js';
import { type ConversionWarning, joinPointer, WarningSink } from '../openapi/warnings.js';
import { convertErrors } from './declared-errors.js';
import { LocalReferences } from './local-references.js';
import { MethodConverter } from './method-converter.js';
import { placeMethods, type RenamedMethod } from './method-names.js';
import { type OpenRpcDocument, readOpenRpcDocument } from './openrpc-document.js';

/** The document to convert: its text (JSON or YAML) or an already parsed object. */
export interface OpenRpcInput {
  text?: string;
  document?: unknown;
  /** The document's file name: decides JSON vs YAML for `text` and names the output in messages. */
  fileName?: string;
}

export interface OpenRpcToIdlOptions {
  /**
   * Binary data (`format: binary`), as in `openApiToIdl`: `error` (default) fails with one
   * BinaryDataError listing every place; `drop` drops each member that holds it, with a warning.
   */
  binary?: 'error' | 'drop';
  /** File name given to the IDL (spans, messages). Default: the input's name with `.idl`. */
  idlFileName?: string;
}

export interface OpenRpcToIdlResult {
  /** The IDL text, printed by `printIdl`. */
  idl: string;
  /** The syntax tree that was printed (nodes carry synthetic spans). */
  file: IdlFile;
  warnings: ConversionWarning[];
  /** The methods whose wire name changes (a name without a dot, or not made of identifiers), in document order. */
  renamedMethods: RenamedMethod[];
}

/**
 * Converts an OpenRPC 1.x document to IDL.
 *
 * @throws ConversionError (with a JSON pointer) for invalid JSON/YAML, a document that is not
 *   OpenRPC 1.x or breaks its shape, a `$ref` that is external, leads nowhere or loops, or
 *   arrays/maps nested deeper than the IDL allows; BinaryDataError for binary data, unless `binary: 'drop'`.
 */
export function openRpcToIdl(input: OpenRpcInput, options: OpenRpcToIdlOptions = {}): OpenRpcToIdlResult {
  const fileName = input.fileName ?? 'openrpc';
  const content = input.document !== undefined ? input.document : parseDocumentText(input.text ?? '', fileName);
  const documents = new LocalReferences(content);
  const document = readOpenRpcDocument(documents);
  const idlFileName = options.idlFileName ?? fileName.replace(/\.(ya?ml|json)$/i, '') + '.idl';
  const sink = new WarningSink();
  const ownDocument = typeof document.info[EXTENSION.namespace] === 'string';
  const ctx: ConversionContext = {
    documents,
    sink,
    topNames: new NameScope(),
    span: syntheticSpan(idlFileName),
    // Property and param names are the wire's: an identifier is kept as it is.
    keepIdentifiers: true,
    ownDocument,
    binary: new BinaryDrops(options.binary ?? 'error', sink),
    examplePointers: new Map(),
  };

  // Interfaces claim their names first: they are part of the methods' wire names; types' are not.
  const { places, renamed } = placeMethods(document.methods, document.info.title as string, ctx.topNames, sink);
  const schemas = new SchemaConverter(ctx);
  schemas.claimComponentNames();
  warnAliases(schemas.convertComponents(), sink);
  const { errors, raises } = convertErrors(document, ctx.span, sink);
  const interfaces = new MethodConverter(ctx, schemas).convert(document.methods, places, raises);
  schemas.finish();
  ctx.binary.throwIfAny();
  schemas.removeUnreferenced(interfaces);
  warnDropped(document, sink);

  const { idl, file } = convertedIdlFile(
    {
      fileName: idlFileName,
      namespace: namespaceOf(document.info, sink, ownDocument),
      comment: docComment(ownDocument ? document.info[EXTENSION.comment] : document.info.description, ownDocument),
      types: schemas.declarations,
      errors,
      interfaces,
    },
    ctx,
    sink,
  );
  return { idl, file, warnings: sink.warnings, renamedMethods: renamed };
}

/**
 * Component schemas that declare no type of their own (`Integer: {type: integer}`, `Pets: {type:
 * array, ...}`, a `$ref` to another): the IDL has no type aliases, so their uses name what they are.
 */
function warnAliases(components: { key: string; location: Location; type: TypeRef }[], sink: WarningSink): void {
  for (const { key, location, type } of components) {
    const schema = valueAt(location.document.content, location.pointer);
    if (type.kind === 'named' && !(isObject(schema) && typeof schema.$ref === 'string')) continue;
    sink.warn(
      displayPointer(location),
      `schema "${key}" is ${printType(type)}: the IDL has no type aliases, so it declares no type and its uses are written ${printType(type)}`,
    );
  }
}

/** Components that only methods' documentation uses: each map dropped with one warning. */
const DOCUMENTATION_COMPONENTS: Record<string, string> = {
  examples: 'the IDL keeps no example calls',
  examplePairings: 'the IDL keeps no example calls',
  links: 'the IDL describes no links between methods',
  tags: 'the IDL groups methods by interface only',
};

/** The parts of the document the IDL has no place for, one warning each. */
function warnDropped(document: OpenRpcDocument, sink: WarningSink): void {
  const { content } = document;
  if (Array.isArray(content.servers) && content.servers.length > 0) {
    const variables = content.servers.some((server) => isObject(server) && isObject(server.variables));
    sink.warn('/servers', `servers dropped: the IDL names no servers${variables ? ' (nor their variables)' : ''}`);
  }
  if (content.externalDocs !== undefined) sink.warn('/externalDocs', 'externalDocs dropped: the IDL has no external documentation links');
  const components = isObject(content.components) ? content.components : {};
  for (const [key, why] of Object.entries(DOCUMENTATION_COMPONENTS)) {
    const map = components[key];
    if (isObject(map) && Object.keys(map).length > 0) sink.warn(`/components/${key}`, `components.${key} dropped: ${why}`);
  }
  const descriptors = components.contentDescriptors;
  if (isObject(descriptors)) {
    for (const key of Object.keys(descriptors)) {
      const pointer = joinPointer('/components/contentDescriptors', key);
      if (!document.usedDescriptors.has(`#${pointer}`)) {
        sink.warn(pointer, `content descriptor "${key}" dropped: no method uses it, and the IDL has params only in methods`);
      }
    }
  }
}
