/**
 * One IDL method as an OpenRPC Method Object (docs/openrpc.md, "Methods"): its wire name, its
 * interface as a tag, the doc comment as `summary` and `description`, the parameters in IDL order
 * (by position or by name: `paramStructure: "either"`, as the server accepts both), the result
 * (nullable for an `[optional]` return; each item of a stream method), and the declared errors it raises.
 */
import type { ErrorDecl, InterfaceDecl, Method } from '../idl/ast.js';
import { defaultOf } from '../idl/attributes.js';
import { docTags } from '../idl/doc-tags.js';
import type { ModelNames, SchemaMapping } from '../openapi/schema-mapping.js';
import { OPENRPC_EXTENSION } from './extensions.js';

type Json = Record<string, unknown>;

/** What one method object is written from. */
export interface MethodSource {
  /** The method's name in the document: its wire name. */
  name: string;
  iface: InterfaceDecl;
  method: Method;
  names: ModelNames;
  mapping: SchemaMapping;
  /** The `$ref` of a declared error's component. */
  errorRef(error: ErrorDecl, names: ModelNames): string;
}

/** The Method Object of `source.method`. */
export function methodObject({ name, iface, method, names, mapping, errorRef }: MethodSource): Json {
  const object: Json = { name, tags: [tagOf(iface, names, mapping)] };
  const description = mapping.descriptionOf(method.comment);
  const summary = description
    ?.split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  if (summary !== undefined) object.summary = summary;
  if (description !== undefined && description !== summary) object.description = description;
  object.paramStructure = 'either';
  object.params = method.parameters.map((parameter) => {
    const schema = mapping.typeSchema(parameter.type, names, false, parameter.attributes);
    return {
      name: parameter.name.text,
      schema: mapping.withDefault(schema, defaultOf(parameter.attributes)),
      required: !parameter.optional,
    };
  });
  object.result = resultOf(method, names, mapping);
  if (method.raises.length > 0) {
    object.errors = method.raises.map((raised) => ({ $ref: errorRef(names.model.errorsByName.get(raised.text)!, names) }));
  }
  const tags = docTags(method.comment);
  // A deprecated interface deprecates each of its methods.
  if (tags.deprecated !== undefined || docTags(iface.comment).deprecated !== undefined) object.deprecated = true;
  if (method.stream !== undefined) object[OPENRPC_EXTENSION.stream] = true;
  if (tags.readonly) object[OPENRPC_EXTENSION.readonly] = true;
  if (method.comment !== undefined) object[OPENRPC_EXTENSION.comment] = method.comment;
  return object;
}

/** The interface as a tag: its name in the document, and its doc comment's description. */
function tagOf(iface: InterfaceDecl, names: ModelNames, mapping: SchemaMapping): Json {
  const tag: Json = { name: names.interfaces.get(iface.name.text)! };
  const description = mapping.descriptionOf(iface.comment);
  if (description !== undefined) tag.description = description;
  return tag;
}

/**
 * The result: the return type (nullable for an `[optional]` return; the item's type for a stream
 * method, which may not be optional), with the method's `@example` results as the schema's `examples`.
 */
function resultOf(method: Method, names: ModelNames, mapping: SchemaMapping): Json {
  let schema = mapping.typeSchema(method.returnType, names, method.returnOptional, method.returnAttributes);
  const examples = docTags(method.comment).examples;
  if (examples !== undefined) schema = '$ref' in schema ? { allOf: [schema], examples } : { ...schema, examples };
  return { name: 'result', schema, required: !method.returnOptional };
}
