/**
 * Reading an OpenRPC document for the converter: the version, `info`, the methods with their
 * params, result and errors (references followed), checked against the shape the specification
 * (1.x) gives them. A document that breaks it is refused with the JSON pointer of the problem and
 * what is wrong there: nothing is guessed. Schemas are read later, by the schema converter, which
 * takes any JSON Schema.
 */
import { isObject, type Schema } from '../openapi/schema-converter.js';
import { child, displayPointer, type Location, locationKey, type SourceDocuments, valueAt } from '../openapi/source-documents.js';
import { ConversionError } from '../openapi/warnings.js';

/** A param or result: where the method lists it, and the content descriptor it is. */
export interface ContentDescriptor {
  /** Where the method lists it (`/methods/0/params/1`); warnings about this use point here. */
  site: Location;
  /** Where the descriptor is (a component, when listed through a `$ref`). */
  location: Location;
  descriptor: Schema;
  name: string;
  required: boolean;
  schema: unknown;
  schemaLocation: Location;
}

/** An error object of a method or of `components.errors`. */
export interface ErrorObject {
  site: Location;
  location: Location;
  code: number;
  message: string;
  error: Schema;
}

/** One method of the document, its references followed. */
export interface OpenRpcMethod {
  /** `/methods/<i>`. */
  site: Location;
  /** The method object (a component, when the entry is a `$ref`). */
  location: Location;
  method: Schema;
  name: string;
  params: ContentDescriptor[];
  result?: ContentDescriptor;
  errors: ErrorObject[];
}

export interface OpenRpcDocument {
  content: Schema;
  info: Schema;
  methods: OpenRpcMethod[];
  /** `components.errors`, in document order. */
  componentErrors: { key: string; error: ErrorObject }[];
  /** Location keys of every content descriptor a method uses. */
  usedDescriptors: Set<string>;
}

const PARAM_STRUCTURES = ['by-name', 'by-position', 'either'];
const COMPONENT_MAPS = ['schemas', 'contentDescriptors', 'errors', 'examples', 'examplePairings', 'links', 'tags'];

/**
 * Reads and checks the root document of `documents`.
 *
 * @throws ConversionError (with the JSON pointer) for anything the specification does not allow in
 *   what the converter reads, and for `$ref`s that are external, lead nowhere or loop.
 */
export function readOpenRpcDocument(documents: SourceDocuments): OpenRpcDocument {
  const content = documents.root.content;
  const root: Location = { document: documents.root, pointer: '' };
  checkVersion(content);
  const info = content.info;
  if (!isObject(info)) throw new ConversionError('/info', missingOr(info, 'info', 'an object'));
  for (const key of ['title', 'version']) {
    if (typeof info[key] !== 'string') throw new ConversionError(`/info/${key}`, missingOr(info[key], `info.${key}`, 'a string'));
  }
  checkComponents(content);
  if (!Array.isArray(content.methods)) throw new ConversionError('/methods', missingOr(content.methods, 'methods', 'an array'));
  const usedDescriptors = new Set<string>();
  const reader = new Reader(documents, usedDescriptors);
  const methods = content.methods.map((_, i) => reader.method(child(root, 'methods', i)));
  const firstByName = new Map<string, OpenRpcMethod>();
  for (const method of methods) {
    const first = firstByName.get(method.name);
    if (first) {
      throw new ConversionError(
        displayPointer(child(method.site, 'name')),
        `method name "${method.name}" is used twice (also at ${displayPointer(first.site)}): method names must be unique`,
      );
    }
    firstByName.set(method.name, method);
  }
  const errors = (content.components as Schema | undefined)?.errors;
  const componentErrors = isObject(errors)
    ? Object.keys(errors).map((key) => ({ key, error: reader.error(child(root, 'components', 'errors', key)) }))
    : [];
  return { content, info, methods, componentErrors, usedDescriptors };
}

/** Only OpenRPC 1.x is converted; anything else is refused, naming what it is. */
function checkVersion(content: unknown): asserts content is Schema {
  if (!isObject(content)) throw new ConversionError('', 'not an OpenRPC document: the top level is not an object');
  const version = content.openrpc;
  if (version === undefined) {
    const what = content.openapi !== undefined || content.swagger !== undefined ? ' (an OpenAPI document: use -openapi-to-idl)' : '';
    throw new ConversionError('', `not an OpenRPC document: the "openrpc" version field is missing${what}`);
  }
  if (typeof version !== 'string') throw new ConversionError('/openrpc', 'the "openrpc" version must be a string such as "1.3.2"');
  if (!/^1\.\d+\.\d+/.test(version)) {
    throw new ConversionError('/openrpc', `OpenRPC ${version} is not supported: only 1.x documents are converted`);
  }
}

function checkComponents(content: Schema): void {
  const components = content.components;
  if (components === undefined) return;
  if (!isObject(components)) throw new ConversionError('/components', 'components must be an object');
  for (const key of COMPONENT_MAPS) {
    if (components[key] !== undefined && !isObject(components[key])) {
      throw new ConversionError(`/components/${key}`, `components.${key} must be an object (a map of names to entries)`);
    }
  }
}

/** `<what> is missing` or `<what> must be <shape>`. */
function missingOr(value: unknown, what: string, shape: string): string {
  return value === undefined ? `${what} is missing` : `${what} must be ${shape}`;
}

/** Reads methods, content descriptors and errors, following `$ref`s. */
class Reader {
  constructor(
    private readonly documents: SourceDocuments,
    private readonly usedDescriptors: Set<string>,
  ) {}

  /**
   * The object at `site`, through any chain of `$ref`s.
   *
   * @throws ConversionError when a `$ref` leads nowhere or back to itself, or the end is no object.
   */
  private follow(site: Location, what: string): { location: Location; value: Schema } {
    let location = site;
    let value: unknown = valueAt(site.document.content, site.pointer);
    const seen = new Set<string>();
    while (isObject(value) && typeof value.$ref === 'string') {
      if (seen.has(locationKey(location))) throw new ConversionError(displayPointer(site), 'the $ref chain leads back to itself');
      seen.add(locationKey(location));
      ({ location, value } = this.documents.resolve(value.$ref, location));
    }
    if (!isObject(value)) throw new ConversionError(displayPointer(location), `${what} must be an object`);
    return { location, value };
  }

  method(site: Location): OpenRpcMethod {
    const { location, value: method } = this.follow(site, 'a method');
    const at = (key: string) => displayPointer(child(location, key));
    if (typeof method.name !== 'string' || method.name === '') {
      throw new ConversionError(at('name'), missingOr(method.name, 'the method name', 'a non-empty string'));
    }
    if (!Array.isArray(method.params)) {
      throw new ConversionError(at('params'), missingOr(method.params, `params of method "${method.name}"`, 'an array (none: [])'));
    }
    if (method.paramStructure !== undefined && !PARAM_STRUCTURES.includes(method.paramStructure as string)) {
      throw new ConversionError(at('paramStructure'), `paramStructure must be ${PARAM_STRUCTURES.map((s) => `"${s}"`).join(', ')}`);
    }
    for (const key of ['tags', 'errors', 'links', 'examples', 'servers']) {
      if (method[key] !== undefined && !Array.isArray(method[key])) throw new ConversionError(at(key), `${key} must be an array`);
    }
    const params = method.params.map((_, i) => this.descriptor(child(location, 'params', i), 'a param'));
    const names = new Set<string>();
    for (const param of params) {
      if (names.has(param.name)) {
        throw new ConversionError(
          displayPointer(param.site),
          `param name "${param.name}" is used twice in method "${method.name}": param names must be unique`,
        );
      }
      names.add(param.name);
    }
    const result = method.result === undefined ? undefined : this.descriptor(child(location, 'result'), 'the result');
    const errors = Array.isArray(method.errors) ? method.errors.map((_, i) => this.error(child(location, 'errors', i))) : [];
    return { site, location, method, name: method.name, params, ...(result ? { result } : {}), errors };
  }

  private descriptor(site: Location, what: string): ContentDescriptor {
    const { location, value: descriptor } = this.follow(site, what);
    this.usedDescriptors.add(locationKey(location));
    const at = (key: string) => displayPointer(child(location, key));
    if (typeof descriptor.name !== 'string' || descriptor.name === '') {
      throw new ConversionError(at('name'), missingOr(descriptor.name, `the name of ${what}`, 'a non-empty string'));
    }
    const schema = descriptor.schema;
    if (!isObject(schema) && typeof schema !== 'boolean') {
      throw new ConversionError(at('schema'), missingOr(schema, `the schema of ${what} "${descriptor.name}"`, 'a JSON Schema (an object)'));
    }
    if (descriptor.required !== undefined && typeof descriptor.required !== 'boolean') {
      throw new ConversionError(at('required'), 'required must be true or false');
    }
    return {
      site,
      location,
      descriptor,
      name: descriptor.name,
      required: descriptor.required === true,
      schema,
      schemaLocation: child(location, 'schema'),
    };
  }

  error(site: Location): ErrorObject {
    const { location, value: error } = this.follow(site, 'an error');
    if (typeof error.code !== 'number' || !Number.isInteger(error.code)) {
      throw new ConversionError(displayPointer(child(location, 'code')), missingOr(error.code, 'the error code', 'an integer'));
    }
    if (typeof error.message !== 'string') {
      throw new ConversionError(displayPointer(child(location, 'message')), missingOr(error.message, 'the error message', 'a string'));
    }
    return { site, location, code: error.code, message: error.message, error };
  }
}
