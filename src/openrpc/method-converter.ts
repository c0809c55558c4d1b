/**
 * OpenRPC methods -> IDL methods (docs/openrpc.md, "OpenRPC -> IDL"): params by name and in order
 * (`required: false`, the default, makes an `[optional]` parameter), the result as the return type
 * (nullable: `[optional]`; `x-idlrpc-stream: true`: a stream of it), summary and description as the
 * doc comment. What the IDL cannot say is dropped with a warning at its pointer.
 */
import type { Attribute, InterfaceDecl, Method, Name, Parameter, TypeRef } from '../idl/ast.js';
import { withDocTags } from '../openapi/doc-tags-in.js';
import { attributesFromSchema } from '../openapi/attributes-in.js';
import { BinarySchemaError } from '../openapi/binary-data.js';
import { EXTENSION } from '../openapi/error-binding.js';
import { camelCaseName, isValidIdentifier, NameScope, upperFirst } from '../openapi/names.js';
import { type ConversionContext, docComment, isObject, type Schema, type SchemaConverter } from '../openapi/schema-converter.js';
import { child, displayPointer, type Location } from '../openapi/source-documents.js';
import type { MethodPlace } from './method-names.js';
import type { ContentDescriptor, OpenRpcMethod } from './openrpc-document.js';

/** Method members that the IDL has no place for, and why, each dropped with a warning. */
const DROPPED_MEMBERS: Record<string, string> = {
  links: 'the IDL describes no links between methods',
  servers: 'the IDL names no servers',
  externalDocs: 'the IDL has no external documentation links',
};

export class MethodConverter {
  private readonly interfaces = new Map<string, InterfaceDecl>();

  constructor(
    private readonly ctx: ConversionContext,
    private readonly schemas: SchemaConverter,
  ) {}

  private warn(location: Location, message: string): void {
    this.ctx.sink.warn(displayPointer(location), message);
  }

  /** Converts every placed method; returns the interfaces in the order of their first method. */
  convert(methods: readonly OpenRpcMethod[], places: readonly (MethodPlace | undefined)[], raises: readonly Name[][]): InterfaceDecl[] {
    methods.forEach((method, i) => {
      const place = places[i];
      if (place === undefined) return;
      // Declared even when its only method is dropped (binary data): the interface is the document's.
      let decl = this.interfaces.get(place.interfaceName);
      if (!decl) {
        decl = { kind: 'interface', name: { text: place.interfaceName, span: this.ctx.span }, methods: [], span: this.ctx.span };
        this.interfaces.set(place.interfaceName, decl);
      }
      if (decl.comment === undefined) {
        const comment = this.interfaceComment(method, place.interfaceName);
        if (comment !== undefined) decl.comment = comment;
      }
      try {
        decl.methods.push(this.method(method, place, raises[i]));
      } catch (error) {
        if (!(error instanceof BinarySchemaError)) throw error;
        this.ctx.binary.drop(error.pointer, `method ${method.name}`);
      }
    });
    return [...this.interfaces.values()];
  }

  private method(source: OpenRpcMethod, place: MethodPlace, raises: Name[]): Method {
    const { method, location } = source;
    const hoistBase = upperFirst(place.methodName);
    // Params first: hoisted structs are declared in the order they are reached.
    const parameters = this.parameters(source, hoistBase);
    const returned = this.returnType(source, hoistBase);
    const converted: Method = {
      name: { text: place.methodName, span: this.ctx.span },
      parameters,
      returnType: returned.type,
      returnOptional: returned.optional,
      raises,
      span: this.ctx.span,
    };
    if (returned.attributes) converted.returnAttributes = returned.attributes;
    if (returned.stream) converted.stream = this.ctx.span;
    const described = this.ctx.ownDocument && typeof method[EXTENSION.comment] === 'string' ? method[EXTENSION.comment] : undefined;
    const comment = docComment(
      described ?? [method.summary, method.description].filter((t) => typeof t === 'string' && t.trim() !== '').join('\n\n'),
      this.ctx.ownDocument,
    );
    const tagged = withDocTags(comment, {
      deprecated: method.deprecated,
      readonly: method[EXTENSION.readonly],
      example: this.resultExample(source),
    });
    if (tagged !== undefined) converted.comment = tagged;
    this.ctx.examplePointers.set(converted, displayPointer(child(location, 'examples')));
    this.warnDropped(source, place);
    return converted;
  }

  /** The params in document order, except that optional ones go after the required ones (the IDL's rule). */
  private parameters(source: OpenRpcMethod, hoistBase: string): Parameter[] {
    const scope = new NameScope();
    const parameters = source.params.map((param) => {
      const name = scope.claim(isValidIdentifier(param.name) ? param.name : camelCaseName(param.name));
      if (name !== param.name) {
        this.warn(
          param.site,
          `param "${param.name}" is written as ${name} (a valid unique identifier): callers passing params by name must use ${name}`,
        );
      }
      const type = this.schemas.typeOf(param.schemaLocation, param.schema, `${hoistBase}_${name}`);
      const optional = !param.required;
      if (param.required && type.nullable) {
        this.warn(
          param.schemaLocation,
          `param "${param.name}" is required and allows null, which a required IDL parameter cannot be: null dropped (make it [optional] to allow it)`,
        );
      }
      const parameter: Parameter = { name: { text: name, span: this.ctx.span }, type: type.type, span: this.ctx.span };
      if (optional) parameter.optional = true;
      const attributes = attributesFromSchema(
        this.schemas.keywordSource(param.schemaLocation, param.schema),
        type.type,
        optional,
        this.ctx.span,
      );
      if (attributes) parameter.attributes = attributes;
      this.ctx.examplePointers.set(parameter, displayPointer(param.site));
      this.warnDescriptor(param, `param "${param.name}"`, 'IDL parameters have no doc comments');
      return parameter;
    });
    const firstOptional = parameters.findIndex((p) => p.optional === true);
    const misplaced = firstOptional === -1 ? -1 : parameters.findIndex((p, i) => i > firstOptional && p.optional !== true);
    if (misplaced !== -1) {
      this.warn(
        source.params[misplaced].site,
        `required param "${source.params[misplaced].name}" follows an optional one (the specification puts required params first): the optional params are moved after the required ones, which changes their positions`,
      );
      parameters.sort((a, b) => Number(a.optional === true) - Number(b.optional === true));
    }
    return parameters;
  }

  /**
   * The result's type: nullable makes it `[optional]`; without a result (a notification) the method
   * returns `bool [optional]`, always null; `x-idlrpc-stream: true` makes it the item type of a stream.
   */
  private returnType(
    source: OpenRpcMethod,
    hoistBase: string,
  ): { type: TypeRef; optional: boolean; attributes?: Attribute[]; stream?: true } {
    const result = source.result;
    const stream = source.method[EXTENSION.stream] === true;
    if (result === undefined) {
      this.warn(
        child(source.location, 'name'),
        `method "${source.name}" has no result (a notification only): the IDL method returns bool [optional], always null${stream ? ', and is no stream' : ''}`,
      );
      return { type: { kind: 'builtIn', name: 'bool', span: this.ctx.span }, optional: true };
    }
    this.warnDescriptor(result, 'the result', 'the IDL has no doc comment for a result');
    const type = this.schemas.typeOf(result.schemaLocation, result.schema, `${hoistBase}Result`);
    if (stream && type.nullable) this.warn(result.schemaLocation, 'null items dropped: the items of an IDL stream are values, never null');
    // A result takes constraints, never a default (defaults fill requests).
    const attributes = attributesFromSchema(
      this.schemas.keywordSource(result.schemaLocation, result.schema),
      type.type,
      false,
      this.ctx.span,
    )?.filter((attribute) => attribute.name.text !== 'default');
    return {
      type: type.type,
      optional: !stream && type.nullable,
      ...(attributes && attributes.length > 0 ? { attributes } : {}),
      ...(stream ? { stream: true as const } : {}),
    };
  }

  /** The description, summary and deprecation of a param or result, which the IDL cannot hold there. */
  private warnDescriptor(descriptor: ContentDescriptor, what: string, why: string): void {
    for (const key of ['summary', 'description']) {
      if (typeof descriptor.descriptor[key] === 'string' && descriptor.descriptor[key] !== '') {
        this.warn(child(descriptor.location, key), `the ${key} of ${what} dropped: ${why}`);
      }
    }
    if (descriptor.descriptor.deprecated === true) {
      this.warn(
        child(descriptor.location, 'deprecated'),
        `the deprecation of ${what} dropped: the IDL deprecates methods, not their params or results`,
      );
    }
  }

  /**
   * The method's `@example`: the value of the result of the first example pairing, else the first
   * of the result schema's `examples` (where IDL -> OpenRPC writes a method's examples).
   */
  private resultExample(source: OpenRpcMethod): unknown {
    const examples = source.method.examples;
    if (!Array.isArray(examples) || examples.length === 0) {
      const schema = source.result?.schema;
      return isObject(schema) && Array.isArray(schema.examples) ? schema.examples[0] : undefined;
    }
    const pairing = this.followed(child(source.location, 'examples', 0), examples[0]);
    const result = isObject(pairing) ? this.followed(child(source.location, 'examples', 0, 'result'), pairing.result) : undefined;
    return isObject(result) ? result.value : undefined;
  }

  /** A value through a `$ref` (examples are often components); undefined where one leads nowhere. */
  private followed(location: Location, value: unknown): unknown {
    if (!isObject(value) || typeof value.$ref !== 'string') return value;
    try {
      return this.ctx.documents.resolve(value.$ref, location).value;
    } catch {
      return undefined;
    }
  }

  /** The description of the method's tag named like its interface (how IDL -> OpenRPC writes an interface's comment). */
  private interfaceComment(source: OpenRpcMethod, interfaceName: string): string | undefined {
    const tags = Array.isArray(source.method.tags) ? source.method.tags : [];
    for (const [i, entry] of tags.entries()) {
      const tag = this.followed(child(source.location, 'tags', i), entry);
      if (isObject(tag) && tag.name === interfaceName) return docComment(tag.description, this.ctx.ownDocument);
    }
    return undefined;
  }

  /** Warnings for the members of a method that the IDL cannot hold. */
  private warnDropped(source: OpenRpcMethod, place: MethodPlace): void {
    const { method, location } = source;
    const structure = method.paramStructure;
    if (structure === 'by-name' || structure === 'by-position') {
      this.warn(
        child(location, 'paramStructure'),
        `paramStructure "${structure}" dropped: an IDL server takes params by name and by position, and its generated client sends them by position`,
      );
    }
    const tags = Array.isArray(method.tags) ? method.tags : [];
    const tagNames = tags.map((tag, i) => (this.followed(child(location, 'tags', i), tag) as Schema | undefined)?.name);
    if (tagNames.some((name) => name !== place.interfaceName)) {
      this.warn(child(location, 'tags'), `tags dropped: the IDL groups methods by interface (${place.interfaceName}) only`);
    }
    if (Array.isArray(method.examples) && method.examples.length > 0) {
      const count = method.examples.length;
      this.warn(
        child(location, 'examples'),
        `${count === 1 ? 'the example pairing' : `${count} example pairings`} dropped: the IDL keeps no example calls (the first pairing's result is the method's @example)`,
      );
    }
    for (const [key, why] of Object.entries(DROPPED_MEMBERS)) {
      const value = method[key];
      if (value !== undefined && !(Array.isArray(value) && value.length === 0)) this.warn(child(location, key), `${key} dropped: ${why}`);
    }
  }
}
