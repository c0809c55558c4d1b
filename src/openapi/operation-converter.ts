/**
 * OpenAPI operations -> IDL interfaces and methods (docs/openapi.md ("Conversion: OpenAPI to IDL
 * (operations)"), plus the reverse of our own REST binding, so that IDL -> OpenAPI -> IDL gives the
 * same methods back.
 */
import { mediaExample, withDocTags } from './doc-tags-in.js';
import type { Attribute, InterfaceDecl, Method, Name, Parameter, TypeRef } from '../idl/ast.js';
import { attributesFromSchema, type KeywordSource } from './attributes-in.js';
import { EVENT_STREAM, EXTENSION } from './error-binding.js';
import { camelCaseName, camelCaseWords, isValidIdentifier, NameScope, typeName, upperFirst } from './names.js';
import { BinarySchemaError } from './binary-data.js';
import { type ConversionContext, docComment, isObject, type Schema, type SchemaConverter, type TypeResult } from './schema-converter.js';
import { child, displayPointer, type Location } from './source-documents.js';
import type { MethodNaming } from './openapi-to-idl.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document, with where it is. */
interface OperationSite {
  path: string;
  httpMethod: string;
  operation: Schema;
  /** Parameters declared on the path item (operations may override them). */
  pathParameters: unknown[];
  location: Location;
  pathItemLocation: Location;
}

/** The methods named `<http method><OperationId>` from an operationId: how many, and the first. */
export interface PrefixedMethods {
  count: number;
  first: { operationId: string; method: string };
}

/** The parameter names, the body and the responses of an operation, converted. */
export class OperationConverter {
  private readonly interfaces = new Map<string, InterfaceDecl>();
  private readonly methodScopes = new Map<string, NameScope>();
  /** Raw interface key (tag or path segment) -> claimed interface name. */
  private readonly interfaceNames = new Map<string, string>();
  private readonly sites: OperationSite[];
  /** Operations named by their operationId alone (`methodNames: 'operation-id'`). */
  private readonly namedByOperationId = new Set<OperationSite>();
  private prefixed: PrefixedMethods | undefined;

  constructor(
    private readonly ctx: ConversionContext,
    private readonly schemas: SchemaConverter,
    /** Error names declared by an IDL-written document; `raises` may only name these. */
    private readonly declaredErrors: ReadonlySet<string>,
    private readonly methodNames: MethodNaming = 'http-method-prefix',
  ) {
    this.sites = this.collectSites();
    if (methodNames === 'operation-id') this.findUniqueOperationIds();
  }

  /** The methods the default rule named from an operationId, for a hint; undefined when none. */
  prefixedMethods(): PrefixedMethods | undefined {
    return this.prefixed;
  }

  /**
   * The operations whose operationId (as an identifier) no other operation of their interface has:
   * those keep it alone as their method's name. Our own binding is left out: it has its own names.
   */
  private findUniqueOperationIds(): void {
    const byName = new Map<string, OperationSite[]>();
    for (const site of this.sites) {
      if (this.binding(site) || this.operationId(site).raw === undefined) continue;
      const key = `${this.interfaceKey(site)}\u0000${this.operationId(site).id}`;
      const list = byName.get(key);
      if (list) list.push(site);
      else byName.set(key, [site]);
    }
    for (const list of byName.values()) if (list.length === 1) this.namedByOperationId.add(list[0]);
  }

  private warn(location: Location | string, message: string): void {
    this.ctx.sink.warn(typeof location === 'string' ? location : displayPointer(location), message);
  }

  private name(text: string): Name {
    return { text, span: this.ctx.span };
  }

  private collectSites(): OperationSite[] {
    const root = this.ctx.documents.root;
    const paths = isObject(root.content) ? root.content.paths : undefined;
    if (!isObject(paths)) return [];
    const sites: OperationSite[] = [];
    for (const [path, rawItem] of Object.entries(paths)) {
      let pathItemLocation = child({ document: root, pointer: '' }, 'paths', path);
      let item = rawItem;
      if (isObject(item) && typeof item.$ref === 'string') {
        const target = this.ctx.documents.resolve(item.$ref, pathItemLocation);
        pathItemLocation = target.location;
        item = target.value;
      }
      if (!isObject(item)) continue;
      for (const httpMethod of Object.keys(item)) {
        if (!(HTTP_METHODS as readonly string[]).includes(httpMethod) || !isObject(item[httpMethod])) continue;
        // The GET form of a @readonly method (our writer's) is the POST beside it: one method.
        if (httpMethod === 'get' && (item.get as Schema)[EXTENSION.read] === true && isObject(item.post)) continue;
        sites.push({
          path,
          httpMethod,
          operation: item[httpMethod] as Schema,
          pathParameters: Array.isArray(item.parameters) ? item.parameters : [],
          location: child(pathItemLocation, httpMethod),
          pathItemLocation,
        });
      }
    }
    return sites;
  }

  /**
   * The method as our own IDL -> OpenAPI writer produced it: `POST /<Interface>/<method>` with
   * operationId `<Interface>_<method>`. Only recognized in documents the writer marked as its own.
   */
  private binding(site: OperationSite): { interfaceName: string; methodName: string } | undefined {
    if (!this.ctx.keepIdentifiers || site.httpMethod !== 'post') return undefined;
    const match = /^\/([A-Za-z][A-Za-z0-9_]*)\/([A-Za-z][A-Za-z0-9_]*)$/.exec(site.path);
    if (!match || site.operation.operationId !== `${match[1]}_${match[2]}`) return undefined;
    return { interfaceName: match[1], methodName: match[2] };
  }

  /** The interface an operation belongs to: its first tag, else the first path segment (`root` for `/`). */
  private interfaceKey(site: OperationSite): string {
    const binding = this.binding(site);
    if (binding) return binding.interfaceName;
    const tags = site.operation.tags;
    if (Array.isArray(tags) && typeof tags[0] === 'string' && tags[0].trim() !== '') return tags[0];
    const segment = site.path.split('/').find((s) => s !== '');
    return segment === undefined ? 'root' : segment.replace(/^\{(.*)\}$/, '$1');
  }

  /** Claims the interface names (after the component schemas, before hoisted structs). */
  /**
   * In a document our writer produced, every top-level tag is an IDL interface (in IDL order), even
   * one without methods.
   */
  private ownTags(): string[] {
    const tags = (this.ctx.documents.root.content as Schema).tags;
    if (!this.ctx.keepIdentifiers || !Array.isArray(tags)) return [];
    return tags
      .filter((t): t is Schema => isObject(t) && typeof t.name === 'string' && isValidIdentifier(t.name))
      .map((t) => t.name as string);
  }

  claimInterfaceNames(): void {
    for (const key of this.ownTags()) {
      if (!this.interfaceNames.has(key)) this.interfaceNames.set(key, this.ctx.topNames.claim(key));
    }
    for (const site of this.sites) {
      const key = this.interfaceKey(site);
      if (this.interfaceNames.has(key)) continue;
      const name = this.ctx.topNames.claim(typeName(key));
      if (name !== key) this.warn(site.location, `interface name "${key}" is not a valid unique IDL identifier; written as ${name}`);
      this.interfaceNames.set(key, name);
    }
  }

  /** Converts every operation; returns the interfaces in order of their first operation (our own documents: tag order). */
  convert(): InterfaceDecl[] {
    const root = this.ctx.documents.root.content as Schema;
    const tagComments = new Map<string, string>();
    if (Array.isArray(root.tags)) {
      for (const tag of root.tags) {
        if (!isObject(tag) || typeof tag.name !== 'string') continue;
        const comment = docComment(this.ctx.keepIdentifiers ? tag[EXTENSION.comment] : tag.description, this.ctx.keepIdentifiers);
        if (comment !== undefined) tagComments.set(tag.name, comment);
      }
    }
    const declare = (key: string): InterfaceDecl => {
      const interfaceName = this.interfaceNames.get(key)!;
      let decl = this.interfaces.get(interfaceName);
      if (!decl) {
        decl = { kind: 'interface', name: this.name(interfaceName), methods: [], span: this.ctx.span };
        const comment = tagComments.get(key);
        if (comment !== undefined) decl.comment = comment;
        this.interfaces.set(interfaceName, decl);
        this.methodScopes.set(interfaceName, new NameScope());
      }
      return decl;
    };
    const ownTags = this.ownTags();
    ownTags.forEach(declare);
    for (const site of this.sites) {
      const decl = declare(this.interfaceKey(site));
      const interfaceName = decl.name.text;
      try {
        const method = this.method(site, this.methodScopes.get(interfaceName)!);
        if (method) decl.methods.push(method);
      } catch (error) {
        if (!(error instanceof BinarySchemaError)) throw error;
        this.ctx.binary.drop(error.pointer, `operation ${site.httpMethod.toUpperCase()} ${site.path}`);
      }
    }
    const own = new Set(ownTags);
    return [...this.interfaces.values()].filter((i) => i.methods.length > 0 || own.has(i.name.text));
  }

  /**
   * The operationId as an identifier. Without one: the path's words in camelCase, a `{param}` segment
   * written `by<Param>` (`GET /pets/{petId}/photos` -> `petsByPetIdPhotos`), `root` for `/`.
   */
  private operationId(site: OperationSite): { id: string; raw?: string } {
    const raw = site.operation.operationId;
    if (typeof raw === 'string' && raw !== '') return { id: isValidIdentifier(raw) ? raw : camelCaseName(raw), raw };
    const words = site.path
      .split('/')
      .filter((s) => s !== '')
      .map((s) => (/^\{.*\}$/.test(s) ? `by ${s.slice(1, -1)}` : s));
    return { id: words.length === 0 ? 'root' : camelCaseName(words.join(' ')) };
  }

  private method(site: OperationSite, scope: NameScope): Method | undefined {
    const binding = this.binding(site);
    const { id, raw } = this.operationId(site);
    if (raw !== undefined && id !== raw && !binding) {
      this.warn(child(site.location, 'operationId'), `operationId "${raw}" is not an identifier; written as ${id}`);
    }
    const alone = this.namedByOperationId.has(site);
    const wanted = binding ? binding.methodName : alone ? id : `${site.httpMethod}${upperFirst(id)}`;
    const methodName = scope.claim(wanted);
    if (this.methodNames === 'http-method-prefix' && !binding && raw !== undefined) {
      if (this.prefixed) this.prefixed.count++;
      else this.prefixed = { count: 1, first: { operationId: raw, method: methodName } };
    }
    if (methodName !== wanted) this.warn(site.location, `method name ${wanted} is used twice in its interface; written as ${methodName}`);

    if (isObject(site.operation.callbacks)) {
      for (const name of Object.keys(site.operation.callbacks)) {
        this.warn(child(site.location, 'callbacks', name), `callback "${name}" dropped: the IDL describes no callbacks`);
      }
    }
    const parameterScope = new NameScope();
    const parameters: Parameter[] = [];
    const addParameter: AddParameter = (rawName, type, location, read) => {
      const keep = this.ctx.keepIdentifiers && isValidIdentifier(rawName);
      const byRule = keep ? rawName : camelCaseWords(rawName);
      const name = parameterScope.claim(keep ? rawName : camelCaseName(rawName));
      if (name !== byRule) this.warn(location, `parameter "${rawName}" is written as ${name} (a valid unique identifier)`);
      const parameter: Parameter = { name: this.name(name), type, span: this.ctx.span };
      if (read.optional) parameter.optional = true;
      const attributes = attributesFromSchema(read.keywords, type, read.optional, this.ctx.span);
      if (attributes) parameter.attributes = attributes;
      this.ctx.examplePointers.set(parameter, displayPointer(location));
      parameters.push(parameter);
    };

    if (!binding) this.addParameters(site, id, addParameter);
    this.addBody(site, id, binding !== undefined, addParameter);
    // Optional parameters come last in the IDL: a positional caller's order may differ from the
    // document's (the REST binding passes parameters by name).
    parameters.sort((a, b) => Number(a.optional === true) - Number(b.optional === true));

    const {
      type: returnType,
      optional,
      example: resultExample,
      attributes: returnAttributes,
      stream,
    } = this.returnType(site, id, binding !== undefined);
    const method: Method = {
      name: this.name(methodName),
      parameters,
      returnType,
      returnOptional: optional,
      raises: binding ? this.raises(site) : [],
      span: this.ctx.span,
    };
    if (returnAttributes) method.returnAttributes = returnAttributes;
    if (stream) method.stream = this.ctx.span;
    const comment = binding
      ? docComment(site.operation[EXTENSION.comment], this.ctx.keepIdentifiers)
      : docComment(
          [site.operation.summary, site.operation.description].filter((t) => typeof t === 'string' && t.trim() !== '').join('\n\n'),
          this.ctx.keepIdentifiers,
        );
    const tagged = withDocTags(comment, {
      deprecated: site.operation.deprecated,
      readonly: site.operation[EXTENSION.readonly],
      example: resultExample,
    });
    if (tagged !== undefined) method.comment = tagged;
    this.ctx.examplePointers.set(method, displayPointer(child(site.location, 'responses')));
    return method;
  }

  /** Path and query parameters become method parameters; header and cookie parameters are dropped. */
  private addParameters(site: OperationSite, operationId: string, add: AddParameter): void {
    // `site` is where the operation lists the parameter (warnings point there: each operation is
    // affected); `location` is where it is defined (maybe a shared component).
    const merged = new Map<string, { site: Location; location: Location; parameter: Schema }>();
    const collect = (list: unknown[], listLocation: Location) => {
      list.forEach((entry, i) => {
        const site = child(listLocation, 'parameters', i);
        let location = site;
        let parameter = entry;
        if (isObject(parameter) && typeof parameter.$ref === 'string') {
          const target = this.ctx.documents.resolve(parameter.$ref, site);
          location = target.location;
          parameter = target.value;
        }
        if (!isObject(parameter) || typeof parameter.name !== 'string') return;
        merged.set(`${String(parameter.in)}:${parameter.name}`, { site, location, parameter });
      });
    };
    collect(site.pathParameters, site.pathItemLocation);
    collect(Array.isArray(site.operation.parameters) ? site.operation.parameters : [], site.location);
    for (const { site, location, parameter } of merged.values()) {
      const name = parameter.name as string;
      if (parameter.in === 'header' || parameter.in === 'cookie') {
        this.warn(site, `${parameter.in} parameter "${name}" dropped: the IDL has no ${parameter.in}s`);
        continue;
      }
      if (parameter.in !== 'path' && parameter.in !== 'query') {
        this.warn(site, `parameter "${name}" in ${String(parameter.in)} dropped`);
        continue;
      }
      let schemaLocation = child(location, 'schema');
      let schema = parameter.schema;
      if (schema === undefined && isObject(parameter.content)) {
        const media = pickMediaType(parameter.content);
        if (media) {
          schemaLocation = child(location, 'content', media, 'schema');
          schema = (parameter.content[media] as Schema | undefined)?.schema;
        }
      }
      const type = this.schemas.typeOf(schemaLocation, schema, `${operationId}_${camelCaseName(name)}`);
      const optional = parameter.in === 'query' && parameter.required !== true;
      add(name, type.type, site, { optional, keywords: this.schemas.keywordSource(schemaLocation, schema) });
    }
  }

  /**
   * The request body becomes the parameter `<operationId>Body`. In a document our writer produced,
   * the body object's properties are the method's parameters instead.
   */
  private addBody(site: OperationSite, operationId: string, binding: boolean, add: AddParameter): void {
    let location = child(site.location, 'requestBody');
    let body = site.operation.requestBody;
    if (isObject(body) && typeof body.$ref === 'string') {
      const target = this.ctx.documents.resolve(body.$ref, location);
      location = target.location;
      body = target.value;
    }
    if (!isObject(body) || !isObject(body.content)) return;
    const media = pickMediaType(body.content);
    if (media === undefined) return;
    const schemaLocation = child(location, 'content', media, 'schema');
    const schema = (body.content[media] as Schema | undefined)?.schema;
    // Our binding: the body object's properties are the parameters (none: the `{}` body of a method
    // without parameters).
    if (binding && isObject(schema) && schema.type === 'object') {
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, propertySchema] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
        const propertyLocation = child(schemaLocation, 'properties', name);
        const type = this.schemas.typeOf(propertyLocation, propertySchema, `${operationId}_${name}`).type;
        add(name, type, propertyLocation, {
          optional: !required.has(name),
          keywords: this.schemas.keywordSource(propertyLocation, propertySchema),
        });
      }
      return;
    }
    const name = `${operationId}Body`;
    const type = this.schemas.typeOf(schemaLocation, schema, name);
    const bodySite = child(site.location, 'requestBody');
    add(name, type.type, bodySite, { optional: body.required !== true, keywords: this.schemas.keywordSource(schemaLocation, schema) });
  }

  /**
   * The return type: the schema of response 200, else 201, else the first other 2xx, else `default`.
   * 204 (or a chosen response without content) makes it `[optional]`; without any schema the method
   * returns `bool [optional]` (always null). Other responses are dropped with a warning.
   */
  private returnType(
    site: OperationSite,
    operationId: string,
    binding: boolean,
  ): { type: TypeRef; optional: boolean; example?: unknown; attributes?: Attribute[]; stream?: true } {
    const responses = isObject(site.operation.responses) ? site.operation.responses : {};
    const codes = Object.keys(responses);
    const success = codes.filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
    const chosen =
      ['200', '201'].find((c) => codes.includes(c)) ??
      success.find((c) => c !== '204') ??
      (codes.includes('default') ? 'default' : undefined);
    let optional = codes.includes('204');
    if (!binding) {
      for (const code of codes) {
        if (code === chosen || /^2(\d\d|XX)$/i.test(code)) continue;
        this.warn(
          child(site.location, 'responses', code),
          `response ${code} dropped: the IDL describes errors only through declared errors`,
        );
      }
    }
    const noResult = (): { type: TypeRef; optional: boolean } => ({
      type: { kind: 'builtIn', name: 'bool', span: this.ctx.span },
      optional: true,
    });
    if (chosen === undefined) return noResult();
    let location = child(site.location, 'responses', chosen);
    let response = responses[chosen];
    if (isObject(response) && typeof response.$ref === 'string') {
      const target = this.ctx.documents.resolve(response.$ref, location);
      location = target.location;
      response = target.value;
    }
    const items = isObject(response) && isObject(response.content) ? streamItems(response.content) : undefined;
    if (items !== undefined) return this.streamItemType(child(location, 'content', items.media, items.key), items.schema, operationId);
    const media = isObject(response) && isObject(response.content) ? pickMediaType(response.content) : undefined;
    const schema = media !== undefined ? ((response as Schema).content as Record<string, Schema>)[media]?.schema : undefined;
    if (schema === undefined) return noResult();
    const schemaLocation = child(location, 'content', media!, 'schema');
    const result: TypeResult = this.schemas.typeOf(schemaLocation, schema, `${operationId}Response`);
    optional ||= result.nullable;
    // A result takes constraints, never a default (defaults fill requests).
    const attributes = attributesFromSchema(this.schemas.keywordSource(schemaLocation, schema), result.type, false, this.ctx.span)?.filter(
      (attribute) => attribute.name.text !== 'default',
    );
    return {
      type: result.type,
      optional,
      example: mediaExample(((response as Schema).content as Record<string, Schema>)[media!]),
      ...(attributes && attributes.length > 0 ? { attributes } : {}),
    };
  }

  /**
   * The item type of a stream method, from the item schema of its `text/event-stream` answer. An
   * item cannot be null in the IDL: a nullable item schema is read without its null, with a warning.
   */
  private streamItemType(
    schemaLocation: Location,
    schema: unknown,
    operationId: string,
  ): { type: TypeRef; optional: false; attributes?: Attribute[]; stream: true } {
    const result: TypeResult = this.schemas.typeOf(schemaLocation, schema, `${operationId}Item`);
    if (result.nullable) this.warn(schemaLocation, 'null items dropped: the items of an IDL stream are values, never null');
    const attributes = attributesFromSchema(this.schemas.keywordSource(schemaLocation, schema), result.type, false, this.ctx.span)?.filter(
      (attribute) => attribute.name.text !== 'default' && attribute.name.text !== 'optional',
    );
    return { type: result.type, optional: false, stream: true, ...(attributes && attributes.length > 0 ? { attributes } : {}) };
  }

  /** `raises` of a method in a document our writer produced. */
  private raises(site: OperationSite): Name[] {
    const raises = site.operation[EXTENSION.raises];
    if (!Array.isArray(raises)) return [];
    return raises.filter((r): r is string => typeof r === 'string' && this.declaredErrors.has(r)).map((r) => this.name(r));
  }
}

/**
 * The item schema of a `text/event-stream` media type that has one (`itemSchema`, OpenAPI 3.2's
 * word, or `x-itemSchema`, ours for 3.0 and 3.1): the answer of a stream method.
 */
function streamItems(content: Schema): { media: string; key: string; schema: unknown } | undefined {
  for (const [media, value] of Object.entries(content)) {
    if (media.split(';')[0].trim().toLowerCase() !== EVENT_STREAM || !isObject(value)) continue;
    for (const key of ['itemSchema', EXTENSION.itemSchema]) {
      if (isObject(value[key])) return { media, key, schema: value[key] };
    }
  }
  return undefined;
}

/** The media type whose schema is used: JSON first, then any `+json`/`json` type, then the first. */
function pickMediaType(content: Schema): string | undefined {
  const types = Object.keys(content);
  return (
    types.find((t) => t.toLowerCase() === 'application/json') ??
    types.find((t) => /[/+]json\b/i.test(t)) ??
    types.find((t) => t === '*/*') ??
    types[0]
  );
}

/** What a parameter of an operation is read as: whether callers may leave it out, and where its keywords are. */
interface ParameterReading {
  optional: boolean;
  keywords: KeywordSource;
}

type AddParameter = (name: string, type: TypeRef, location: Location, read: ParameterReading) => void;
