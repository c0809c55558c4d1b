/**
 * An OpenAPI document as the fidelity count reads it (bench/lib/fidelity-count.ts): local `$ref`s,
 * the keywords that apply to a schema through references and wrappers, properties and the binding's
 * request bodies.
 */

export type Json = Record<string, unknown>;

/** How deep `$ref`s and wrappers are followed: far more than any real document chains. */
const MAX_FOLLOW = 32;

/** One OpenAPI document: local `$ref`s, effective keywords, property and request body lookup. */
export class OpenApiDocument {
  readonly root: Json;

  constructor(content: unknown) {
    this.root = isObject(content) ? content : {};
  }

  schemas(): Json {
    const components = this.root.components;
    return isObject(components) && isObject(components.schemas) ? components.schemas : {};
  }

  /** Follows a chain of local `$ref`s (undefined for one that leads nowhere or outside the document). */
  resolve(value: unknown): unknown {
    for (let i = 0; i < MAX_FOLLOW && isObject(value) && typeof value.$ref === 'string'; i++) {
      value = this.target(value.$ref);
    }
    return value;
  }

  private target(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined;
    let node: unknown = this.root;
    for (const token of decodeURIComponent(ref.slice(1)).split('/').slice(1)) {
      if (!isObject(node) && !Array.isArray(node)) return undefined;
      node = (node as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  }

  /**
   * The keywords that apply to a value of `schema`: its own, then (where it has none of its own)
   * those of the schema its `$ref` names, of the one member of an `allOf`, and of the one member of
   * a `oneOf`/`anyOf` besides a null-only one (the forms nullable and described references take).
   */
  keywords(schema: unknown, depth = 0): Json {
    if (!isObject(schema) || depth > MAX_FOLLOW) return {};
    const inner: Json[] = [];
    if (typeof schema.$ref === 'string') inner.push(this.keywords(this.target(schema.$ref), depth + 1));
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) inner.push(this.keywords(schema.allOf[0], depth + 1));
    for (const keyword of ['oneOf', 'anyOf']) {
      const members = schema[keyword];
      if (!Array.isArray(members)) continue;
      const others = members.filter((m) => !isNullOnly(this.resolve(m)));
      if (others.length === 1) inner.push(this.keywords(others[0], depth + 1));
    }
    return Object.assign({}, ...inner.reverse(), schema);
  }

  /** Property `name` of an object schema: its own, its `allOf` members', or inherited through their `$ref`s. */
  findProperty(schema: unknown, name: string, depth = 0): unknown {
    const resolved = this.resolve(schema);
    if (!isObject(resolved) || depth > MAX_FOLLOW) return undefined;
    if (isObject(resolved.properties) && Object.hasOwn(resolved.properties, name)) return resolved.properties[name];
    if (!Array.isArray(resolved.allOf)) return undefined;
    for (const member of resolved.allOf) {
      const found = this.findProperty(member, name, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The JSON request body schema of `POST <path>` (the binding's `/<Interface>/<method>`). */
  requestBody(path: string): unknown {
    const paths = this.root.paths;
    const item = isObject(paths) ? paths[path] : undefined;
    const body = isObject(item) && isObject(item.post) ? this.resolve(item.post.requestBody) : undefined;
    const content = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
    return isObject(content) ? content.schema : undefined;
  }
}

/** `{type: 'null'}`, `{enum: [null]}` or `{nullable: true}` without a type: allows only null. */
function isNullOnly(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) return true;
  return schema.nullable === true && schema.type === undefined && schema.$ref === undefined && Object.keys(schema).length === 1;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Appends reference tokens to a JSON pointer, escaped as RFC 6901 says (as the converter writes them). */
export function joinPointer(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
