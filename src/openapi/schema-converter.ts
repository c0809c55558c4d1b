/**
 * OpenAPI schemas -> IDL types. Named schemas (component schemas and inline objects, which are
 * hoisted) become structs and enums; everything else becomes a built-in, array or map type.
 *
 * Each schema location is converted once (cached by location), so a schema reached from several
 * places is one IDL type, and recursive schemas terminate. After everything is converted, `finish`
 * drops fields a child redefines and breaks cycles of required struct fields (which no value could
 * satisfy and the checker rejects).
 *
 * Hostile documents (schemas nested thousands deep, `$ref` and `allOf` chains of thousands) must not
 * exhaust the stack: chains of `$ref`s and pass-through schemas (`allOf` of one, `oneOf`) are walked
 * in a loop, a struct's fields are converted later (from a queue) once the conversion is
 * MAX_CONVERSION_DEPTH deep, and arrays and maps stop at the IDL's own nesting limit.
 */
import { deprecatedEnumValues, schemaExample, withDocTags } from './doc-tags-in.js';
import type { BuiltInTypeName, EnumDecl, EnumValue, Field, InterfaceDecl, SourceSpan, StructDecl, TypeRef, UnionDecl } from '../idl/ast.js';
import { MAX_TYPE_DEPTH } from '../idl/parser.js';
import { BinarySchemaError, type BinaryDrops } from './binary-data.js';
import { EXTENSION, RPC_ERROR_MARKER } from './error-binding.js';
import { NULLABLE_COPY_MARKER } from './nullable-copy.js';
import { camelCaseName, camelCaseWords, enumValueName, isValidIdentifier, NameScope, typeName } from './names.js';
import { attributesFromSchema, type KeywordChain, type KeywordSource } from './attributes-in.js';
import { child, displayPointer, type Location, locationKey, type SourceDocuments } from './source-documents.js';
import { breakRequiredCycles, settleInheritance } from './struct-passes.js';
import { type UnionShape, unionShape } from './union-shape.js';
import { UNION_VARIANT_MARKER } from './union-variants.js';
import { ConversionError, type WarningSink } from './warnings.js';

export type Schema = Record<string, unknown>;

/**
 * How deep conversions may nest (a struct's field's type, its items, ...) before struct fields are
 * converted from a queue instead; keeps the stack small whatever the document's depth.
 */
const MAX_CONVERSION_DEPTH = 200;

/**
 * The longest name derived for a hoisted schema (`<Struct>_<field>_item`, ...); a longer one is cut
 * here (and made unique with `_2`, `_3`, ...). Derived names grow with nesting: uncut, a document
 * nested n deep would give names of length n, and IDL of size n². Real names stay far below it.
 */
export const MAX_HOISTED_NAME_LENGTH = 256;

/** What the schema and operation converters share. */
export interface ConversionContext {
  documents: SourceDocuments;
  sink: WarningSink;
  /** Names of all top-level declarations (structs, enums, interfaces). */
  topNames: NameScope;
  /** The span every synthetic node carries. */
  span: SourceSpan;
  /**
   * Keep names that already are identifiers as written, instead of camelCasing them (documents this
   * package wrote; OpenRPC documents, whose property names are the wire's).
   */
  keepIdentifiers: boolean;
  /**
   * A document this package wrote: its markers (`x-idl-*`, the error body schema, nullable copies,
   * union variants) are read, and descriptions are the exact comments they were written from.
   */
  ownDocument: boolean;
  /** Where the members that binary data makes go are reported (warnings, or one error at the end). */
  binary: BinaryDrops;
  /** The document pointer of each converted node whose comment got an `@example` (for the warning when it is dropped). */
  examplePointers: Map<object, string>;
}

/** An IDL type and whether the schema also allows `null`. */
export interface TypeResult {
  type: TypeRef;
  nullable: boolean;
}

type Kind = 'struct' | 'enum' | 'numericEnum' | 'union' | 'inline';

export function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `components.schemas` of a document, when it is an object. */
function componentSchemaMap(content: unknown): Schema | undefined {
  const components = isObject(content) ? content.components : undefined;
  return isObject(components) && isObject(components.schemas) ? components.schemas : undefined;
}

/** Where the component schema `key` of `document` is. */
function componentLocation(document: Location['document'], key: string): Location {
  return { document, pointer: `/components/schemas/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` };
}

/** The `type` keyword as a list without `null` (3.1 allows `type: [T, "null"]`). */
function typeList(schema: Schema): string[] {
  const type = schema.type;
  const list = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  return list.filter((t): t is string => typeof t === 'string' && t !== 'null');
}

/** `nullable: true` (3.0), `type: [T, "null"]` (3.1) or `null` among the enum values. */
function allowsNull(schema: Schema): boolean {
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  return Array.isArray(schema.enum) && schema.enum.includes(null);
}

/** `{ type: "null" }`: the null member of a `oneOf`/`anyOf`. */
function isNullSchema(schema: unknown): boolean {
  return (
    isObject(schema) && (schema.type === 'null' || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null))
  );
}

/**
 * A doc comment from a description: lines without trailing blanks, no leading/trailing empty lines.
 * `exact` (documents our writer produced, whose descriptions are IDL comments) keeps it as it is.
 */
export function docComment(description: unknown, exact = false): string | undefined {
  if (typeof description !== 'string') return undefined;
  if (exact) return description;
  const text = description
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
  return text === '' ? undefined : text;
}

/** Properties and `required` list of one part of a struct (the schema itself or an allOf member). */
interface PropertySource {
  location: Location;
  schema: Schema;
}

export class SchemaConverter {
  /** Structs and enums in the order they were declared. */
  declarations: (StructDecl | EnumDecl | UnionDecl)[] = [];
  /** Location key -> the union shape found there (undefined: none), see `unionAt`. */
  private readonly unionShapes = new Map<string, UnionShape | undefined>();
  /** Each variant struct with the discriminators that leave it (and its ancestors) in `finish`. */
  private readonly tagFields = new Map<string, Set<string>>();
  /** What each component schema became (kept even when unused: they are the document's types). */
  private readonly componentTypes: TypeRef[] = [];
  /** Structs of numeric-enum constants: documentation that no type refers to, always kept. */
  private readonly constantStructs = new Set<string>();
  /** Where each field came from, for warnings of the post-passes. */
  readonly fieldPointers = new WeakMap<Field, string>();
  private readonly structs = new Map<string, StructDecl>();
  /** Location key -> result, for every schema converted (named types, inline ones, `$ref`s). */
  private readonly named = new Map<string, TypeResult>();
  /** Location key -> name claimed up front for component schemas. */
  private readonly componentNames = new Map<string, string>();
  /** Locations of `$ref`s and inline schemas being converted (a loop without a named type in it). */
  private readonly inProgress = new Set<string>();
  /** Location key -> whether the schema there describes an object (see `isObjectSchema`). */
  private readonly objectSchemas = new Map<string, boolean>();
  /**
   * Union-find over `extends`: struct name -> a struct higher up its inheritance tree. A struct
   * whose fields are being converted extends nothing yet, so it is the root of its tree, and a
   * parent would make a cycle exactly when the parent's root is that struct.
   */
  private readonly inheritanceRoots = new Map<string, string>();
  /** How deep `typeOf` calls are nested now. */
  private depth = 0;
  /** How many arrays/maps enclose the schema being converted, inside the current struct. */
  private typeNesting = 0;
  /** Struct bodies waiting to be converted (see MAX_CONVERSION_DEPTH), and the next one to run. */
  private deferred: ((() => void) | undefined)[] = [];
  private deferredHead = 0;
  private runningDeferred = false;

  constructor(private readonly ctx: ConversionContext) {}

  private warn(location: Location | string, message: string): void {
    this.ctx.sink.warn(typeof location === 'string' ? location : displayPointer(location), message);
  }

  private builtIn(name: BuiltInTypeName): TypeRef {
    return { kind: 'builtIn', name, span: this.ctx.span };
  }

  /**
   * The component schemas of the root document, without the error body schema and the nullable
   * copies of our own documents (a copy is read as the type it copies, see `step`).
   */
  componentSchemas(): { location: Location; schema: unknown; key: string }[] {
    const root = this.ctx.documents.root;
    const schemas = componentSchemaMap(root.content);
    if (schemas === undefined) return [];
    return Object.entries(schemas)
      .filter(
        ([key, schema]) =>
          !(
            this.ctx.ownDocument &&
            ((isObject(schema) && (schema[RPC_ERROR_MARKER] === true || typeof schema[UNION_VARIANT_MARKER] === 'string')) ||
              this.copiedComponent(key) !== undefined)
          ),
      )
      .map(([key, schema]) => ({ key, schema, location: componentLocation(root, key) }));
  }

  /**
   * In our own documents, the component a nullable copy (3.0, nullable-copy.ts) copies: the name its
   * marker gives, when that component exists and is no copy itself. Undefined for any other schema.
   */
  private copiedComponent(key: string): string | undefined {
    const schemas = componentSchemaMap(this.ctx.documents.root.content);
    const copy = schemas !== undefined && Object.hasOwn(schemas, key) ? schemas[key] : undefined;
    if (!this.ctx.ownDocument || !isObject(copy) || typeof copy[NULLABLE_COPY_MARKER] !== 'string') return undefined;
    const of = copy[NULLABLE_COPY_MARKER];
    const original = schemas !== undefined && Object.hasOwn(schemas, of) ? schemas[of] : undefined;
    return isObject(original) && original[NULLABLE_COPY_MARKER] === undefined ? of : undefined;
  }

  /**
   * Claims the names of the component schemas that become structs or enums, in document order, so
   * they keep their names whatever the order they are reached in. Rule: the title, else the key.
   */
  claimComponentNames(): void {
    for (const { key, schema, location } of this.componentSchemas()) {
      if (!isObject(schema) || typeof schema.$ref === 'string' || this.classify(location, schema) === 'inline') continue;
      const hasTitle = typeof schema.title === 'string' && schema.title.trim() !== '';
      const raw = hasTitle ? (schema.title as string) : key;
      const name = this.ctx.topNames.claim(typeName(raw));
      if (name !== raw)
        this.warn(location, `schema ${hasTitle ? 'title' : 'name'} "${raw}" is not a valid unique IDL identifier; written as ${name}`);
      this.componentNames.set(locationKey(location), name);
    }
  }

  /**
   * Converts every component schema, so unused ones are part of the IDL too. Returns what each
   * became (a built-in, array or map type declares nothing: the IDL has no type aliases).
   */
  convertComponents(): { key: string; location: Location; type: TypeRef }[] {
    return this.componentSchemas().map(({ key, schema, location }) => {
      const type = this.typeOf(location, schema, typeName(key), true).type;
      this.componentTypes.push(type);
      return { key, location, type };
    });
  }

  /**
   * The IDL type of the schema at `location`. `hoistName` names the struct an inline object becomes
   * (`<Struct>_<field>`, `<operationId>Body`, ...); arrays and maps derive `_item` / `_value` from it.
   * `component`: binary data there makes the schema `string` (reported to `ctx.binary`).
   *
   * @throws BinarySchemaError for binary data; ConversionError for unresolvable references or
   *   arrays/maps nested deeper than the IDL allows.
   */
  typeOf(location: Location, schema: unknown, hoistName: string, component = false): TypeResult {
    if (component) {
      try {
        return this.typeOf(location, schema, hoistName);
      } catch (error) {
        if (!(error instanceof BinarySchemaError)) throw error;
        this.ctx.binary.drop(error.pointer, `schema ${hoistName}`, 'replaced by string');
        return { type: this.builtIn('string'), nullable: false };
      }
    }
    this.depth++;
    let result: TypeResult;
    try {
      result = this.follow(location, schema, hoistName);
    } finally {
      this.depth--;
    }
    if (this.depth === 0) this.runDeferred();
    return result;
  }

  /**
   * Follows `$ref`s and pass-through schemas (an inline `allOf` of non-objects, `oneOf`/`anyOf`) in
   * a loop to the schema that gives the type, then caches the result at every step, so a chain is
   * walked once. A step reached again while it is being followed is a loop: `string`, with a warning.
   */
  private follow(start: Location, startSchema: unknown, startName: string): TypeResult {
    const steps: { key: string; nullable: boolean }[] = [];
    let location = start;
    let schema = startSchema;
    let name = startName;
    let result: TypeResult | undefined;
    try {
      while (isObject(schema)) {
        const key = locationKey(location);
        const known = this.named.get(key);
        if (known) {
          result = known;
          break;
        }
        if (this.inProgress.has(key)) {
          const what =
            typeof schema.$ref === 'string'
              ? 'the $ref chain leads back to itself'
              : 'the schema contains itself without an object in between';
          this.warn(location, `${what}; used string`);
          result = { type: this.builtIn('string'), nullable: true };
          break;
        }
        const next = this.step(location, schema, name);
        if (!next) break;
        this.inProgress.add(key);
        steps.push({ key, nullable: next.nullable });
        ({ location, schema, name } = next);
      }
      result ??= this.convertAt(location, schema, name);
    } finally {
      for (const step of steps) this.inProgress.delete(step.key);
    }
    for (let i = steps.length - 1; i >= 0; i--) {
      result = { type: result.type, nullable: !holdsNull(result.type) && (result.nullable || steps[i].nullable) };
      this.named.set(steps[i].key, result);
    }
    return result;
  }

  /**
   * One step of `follow`: the schema a `$ref` names, or the member an inline `allOf` / `oneOf` /
   * `anyOf` uses; `nullable` is what this step adds. Undefined when the schema itself gives the type.
   */
  private step(
    location: Location,
    schema: Schema,
    name: string,
  ): { location: Location; schema: unknown; name: string; nullable: boolean } | undefined {
    if (typeof schema.$ref === 'string') {
      const target = this.ctx.documents.resolve(schema.$ref, location);
      const root = this.ctx.documents.root;
      const copied = target.location.document === root ? this.copiedComponentAt(target.location.pointer) : undefined;
      if (copied !== undefined) {
        // Our nullable copy of a component: that component, nullable.
        const original = componentLocation(root, copied);
        return {
          location: original,
          schema: componentSchemaMap(root.content)![copied],
          name: this.contextName(original, undefined, name),
          nullable: true,
        };
      }
      return {
        location: target.location,
        schema: target.value,
        name: this.contextName(target.location, target.value, name),
        nullable: schema.nullable === true,
      };
    }
    if (this.classify(location, schema) !== 'inline') return undefined;
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      // One member (e.g. a $ref with a description beside it) or several non-object members.
      const members = schema.allOf;
      if (members.length > 1)
        this.warn(child(location, 'allOf'), `allOf of ${members.length} schemas that are not objects: the first is used`);
      return { location: child(location, 'allOf', 0), schema: members[0], name, nullable: allowsNull(schema) };
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const alternatives = schema[keyword];
      if (!Array.isArray(alternatives) || alternatives.length === 0) continue;
      const indexed = alternatives.map((member, i) => ({ member, i })).filter(({ member }) => !isNullSchema(member));
      if (indexed.length === 0) break;
      if (indexed.length > 1) {
        this.warn(
          child(location, keyword),
          `${keyword} with ${indexed.length} alternatives: no discriminator and no property with a distinct constant in each tells them apart; the first (${describe(indexed[0].member)}) is used`,
        );
      }
      const nullable = indexed.length < alternatives.length || allowsNull(schema);
      return { location: child(location, keyword, indexed[0].i), schema: indexed[0].member, name, nullable };
    }
    return undefined;
  }

  /** `copiedComponent` of the component schema at `pointer` in the root document. */
  private copiedComponentAt(pointer: string): string | undefined {
    const prefix = '/components/schemas/';
    if (!pointer.startsWith(prefix) || pointer.indexOf('/', prefix.length) !== -1) return undefined;
    return this.copiedComponent(pointer.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~'));
  }

  /** The name context of a `$ref` target: its claimed name, its component key, its title, else the caller's. */
  private contextName(location: Location, value: unknown, fallback: string): string {
    const claimed = this.componentNames.get(locationKey(location));
    if (claimed !== undefined) return claimed;
    // `.../schemas/<Name>`, `.../definitions/<Name>`, `.../$defs/<Name>`, or `<Name>` at the top of another file.
    const tokens = location.pointer
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens[tokens.length - 1];
    const parent = tokens[tokens.length - 2];
    if (
      last !== undefined &&
      (['schemas', 'definitions', '$defs'].includes(parent ?? '') || (location.document.id !== '' && tokens.length === 1))
    ) {
      return typeName(last);
    }
    if (isObject(value) && typeof value.title === 'string' && value.title.trim() !== '') return typeName(value.title);
    return fallback;
  }

  /** The type a schema gives by itself (no `$ref`, not a pass-through; see `follow`). */
  private convertAt(location: Location, schema: unknown, name: string): TypeResult {
    if (schema === true) return this.anyValue(location);
    if (!isObject(schema)) {
      this.warn(location, 'not a schema object; used string');
      return { type: this.builtIn('string'), nullable: false };
    }
    switch (this.classify(location, schema)) {
      case 'struct':
        return this.declareStruct(location, schema, name);
      case 'enum':
        return this.declareEnum(location, schema, name);
      case 'numericEnum':
        return this.declareNumericEnum(location, schema, name);
      case 'union':
        return this.declareUnion(location, schema, name, this.unionAt(location, schema)!);
      case 'inline': {
        const key = locationKey(location);
        this.inProgress.add(key);
        try {
          const inline = this.inlineType(location, schema, name);
          const result: TypeResult = { type: inline.type, nullable: !holdsNull(inline.type) && (inline.nullable || allowsNull(schema)) };
          // Cached like named types, so a schema reached from many places warns once.
          this.named.set(key, result);
          return result;
        } finally {
          this.inProgress.delete(key);
        }
      }
    }
  }

  /**
   * What a schema becomes: a struct, an enum, a struct of numeric constants, a union, or an inline
   * type. `unions: false` skips the union test (asked while testing one: a chain of unions through
   * their members would otherwise recurse as deep as the document is long).
   */
  private classify(location: Location, schema: Schema, unions = true): Kind {
    // Only a schema that is nothing but the alternatives: properties or allOf beside them make a struct.
    const alternativesOnly =
      (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) && !isObject(schema.properties) && !Array.isArray(schema.allOf);
    if (unions && alternativesOnly && this.unionAt(location, schema) !== undefined) return 'union';
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v) => v !== null);
      if (values.length > 0 && values.every((v) => typeof v === 'string')) return 'enum';
      if (values.length > 0 && values.every((v) => typeof v === 'number')) return 'numericEnum';
      return 'inline';
    }
    if (Array.isArray(schema.allOf)) {
      if (isObject(schema.properties)) return 'struct';
      if (schema.allOf.length === 1) return 'inline';
      return schema.allOf.some((member, i) => this.isObjectSchema(child(location, 'allOf', i), member)) ? 'struct' : 'inline';
    }
    if (isObject(schema.properties)) return 'struct';
    const types = typeList(schema);
    const objectType = types.includes('object') || (types.length === 0 && schema.additionalProperties !== undefined);
    if (!objectType) return 'inline';
    if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return 'inline';
    // An object with an additionalProperties schema is a map, one with `additionalProperties: true`
    // json; any other free-form object is an empty struct (the runtime passes unknown fields through).
    if (schema.additionalProperties === true) return 'inline';
    return isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0 ? 'inline' : 'struct';
  }

  /**
   * True when the schema (through `$ref`s and `allOf` members) describes an object with properties.
   * A depth-first walk with its own stack, left to right; every schema it settles is remembered, so
   * chains are walked once (a schema on the way to an object is one too; when nothing is found,
   * nothing the walk reached is).
   */
  private isObjectSchema(location: Location, schema: unknown): boolean {
    const visited: { key: string; parent: number }[] = [];
    const seen = new Set<string>();
    const stack: { location: Location; schema: unknown; parent: number }[] = [{ location, schema, parent: -1 }];
    const markPath = (from: number): void => {
      for (let i = from; i !== -1; i = visited[i].parent) this.objectSchemas.set(visited[i].key, true);
    };
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!isObject(node.schema)) continue;
      const key = locationKey(node.location);
      if (seen.has(key)) continue;
      seen.add(key);
      const known = this.objectSchemas.get(key);
      if (known === false) continue;
      if (known === true) {
        markPath(node.parent);
        return true;
      }
      visited.push({ key, parent: node.parent });
      const index = visited.length - 1;
      if (typeof node.schema.$ref === 'string') {
        const target = this.ctx.documents.resolve(node.schema.$ref, node.location);
        stack.push({ location: target.location, schema: target.value, parent: index });
        continue;
      }
      if (Array.isArray(node.schema.enum)) continue;
      if (isObject(node.schema.properties) || typeList(node.schema).includes('object')) {
        markPath(index);
        return true;
      }
      if (Array.isArray(node.schema.allOf)) {
        for (let i = node.schema.allOf.length - 1; i >= 0; i--) {
          stack.push({ location: child(node.location, 'allOf', i), schema: node.schema.allOf[i], parent: index });
        }
      }
    }
    for (const { key } of visited) this.objectSchemas.set(key, false);
    return false;
  }

  /**
   * Claims a top-level name for a named schema: its claimed component name, its title, else
   * `wanted` (cut to MAX_HOISTED_NAME_LENGTH).
   */
  private claimName(location: Location, schema: Schema, wanted: string): string {
    const claimed = this.componentNames.get(locationKey(location));
    if (claimed !== undefined) return claimed;
    const title = typeof schema.title === 'string' && schema.title.trim() !== '' ? schema.title : undefined;
    const name = this.ctx.topNames.claim(title !== undefined ? typeName(title) : wanted.slice(0, MAX_HOISTED_NAME_LENGTH));
    if (name !== (title ?? wanted)) {
      this.warn(
        location,
        `${title !== undefined ? `title "${title}"` : `name ${wanted}`} is not a valid unique IDL identifier; written as ${name}`,
      );
    }
    return name;
  }

  /**
   * The doc comment of a schema: its description, or in a document we wrote the exact comment in
   * `x-idl-comment` (present when the comment holds doc tags).
   */
  private describedBy(schema: Schema): string | undefined {
    const exact = this.ctx.ownDocument ? schema[EXTENSION.comment] : undefined;
    return docComment(typeof exact === 'string' ? exact : schema.description, this.ctx.ownDocument);
  }

  private namedType(name: string): TypeRef {
    return { kind: 'named', name, span: this.ctx.span };
  }

  private declareStruct(location: Location, schema: Schema, wanted: string): TypeResult {
    const name = this.claimName(location, schema, wanted);
    const struct: StructDecl = { kind: 'struct', name: { text: name, span: this.ctx.span }, fields: [], span: this.ctx.span };
    const comment = withDocTags(this.describedBy(schema), {
      deprecated: schema.deprecated,
      example: schemaExample(schema),
    });
    if (comment !== undefined) struct.comment = comment;
    this.ctx.examplePointers.set(struct, displayPointer(location));
    const result: TypeResult = { type: this.namedType(name), nullable: allowsNull(schema) };
    // Registered before the fields are converted, so a field that refers back finds it.
    this.named.set(locationKey(location), result);
    this.declarations.push(struct);
    this.structs.set(name, struct);
    if (this.depth > MAX_CONVERSION_DEPTH) {
      // Deep enough: the fields are converted from the queue, with a fresh stack.
      this.deferred.push(() => {
        this.typeNesting = 0;
        this.convertStructBody(location, schema, struct);
      });
      return result;
    }
    const typeNesting = this.typeNesting;
    this.typeNesting = 0;
    try {
      this.convertStructBody(location, schema, struct);
    } finally {
      this.typeNesting = typeNesting;
    }
    return result;
  }

  /** The union shape of the schema at `location` (docs/openapi.md, "Unions"), found once. */
  private unionAt(location: Location, schema: Schema): UnionShape | undefined {
    const key = locationKey(location);
    if (this.unionShapes.has(key)) return this.unionShapes.get(key);
    this.unionShapes.set(key, undefined); // a union that reaches itself while being read is none
    const shape = unionShape(location, schema, {
      resolve: (ref, from) => this.ctx.documents.resolve(ref, from),
      isStruct: (at, value) => isObject(value) && typeof value.$ref !== 'string' && this.classify(at, value, false) === 'struct',
    });
    this.unionShapes.set(key, shape);
    return shape;
  }

  /**
   * A union: each variant's struct converted as any schema (a component keeps its name), the tag
   * property leaving the struct in `finish`. A variant that does not become a struct, or two variants
   * of one struct, make it the first alternative after all, with the usual warning.
   */
  private declareUnion(location: Location, schema: Schema, wanted: string, shape: UnionShape): TypeResult {
    const name = this.claimName(location, schema, wanted);
    // Named as a field of that name would be: the tag is a property of each variant's values.
    const discriminator =
      this.ctx.keepIdentifiers && isValidIdentifier(shape.propertyName) ? shape.propertyName : camelCaseName(shape.propertyName);
    const union: UnionDecl = { kind: 'union', name: { text: name, span: this.ctx.span }, variants: [], span: this.ctx.span };
    if (discriminator !== 'kind') {
      union.attributes = [
        {
          name: { text: 'discriminator', span: this.ctx.span },
          value: { text: discriminator, span: this.ctx.span },
          span: this.ctx.span,
        },
      ];
    }
    const comment = withDocTags(this.describedBy(schema), { deprecated: schema.deprecated, example: schemaExample(schema) });
    if (comment !== undefined) union.comment = comment;
    const result: TypeResult = { type: this.namedType(name), nullable: shape.nullable || allowsNull(schema) };
    this.named.set(locationKey(location), result);
    const structs = new Set<string>();
    for (const variant of shape.variants) {
      const type = this.typeOf(variant.location, variant.schema, `${name}_${variant.tag}`).type;
      if (type.kind !== 'named' || !this.structs.has(type.name) || structs.has(type.name)) {
        this.warn(
          child(location, shape.keyword),
          `${shape.keyword} with ${shape.variants.length} alternatives: variant ${variant.tag} is not a struct of its own; the first (${describe(shape.variants[0].schema)}) is used`,
        );
        const first = this.typeOf(shape.variants[0].location, shape.variants[0].schema, `${name}_${shape.variants[0].tag}`);
        this.named.set(locationKey(location), { type: first.type, nullable: result.nullable });
        return { type: first.type, nullable: result.nullable };
      }
      structs.add(type.name);
      const converted: UnionDecl['variants'][number] = {
        tag: { text: variant.tag, span: this.ctx.span },
        type: { text: type.name, span: this.ctx.span },
        span: this.ctx.span,
      };
      // The variant component's description (ours: the variant's comment).
      const comment = variant.tagSchema && this.describedBy(variant.tagSchema);
      if (comment !== undefined) converted.comment = comment;
      union.variants.push(converted);
      const fields = this.tagFields.get(type.name) ?? new Set<string>();
      this.tagFields.set(type.name, fields.add(discriminator));
    }
    this.declarations.push(union);
    return result;
  }

  /**
   * The tag property leaves each variant struct and its ancestors: the union's discriminator is
   * written by the union. A struct also used outside the union loses it there too (docs/openapi.md,
   * "Unions"); the runtime passes unknown fields through, so values that carry it still pass.
   */
  private dropTagFields(): void {
    for (const [structName, tags] of this.tagFields) {
      for (let struct = this.structs.get(structName), hops = 0; struct && hops <= this.structs.size; hops++) {
        struct.fields = struct.fields.filter((field) => !tags.has(field.name.text));
        struct = struct.extends ? this.structs.get(struct.extends.text) : undefined;
      }
    }
  }

  /** A struct's parent and fields. */
  private convertStructBody(location: Location, schema: Schema, struct: StructDecl): void {
    const name = struct.name.text;
    const sources: PropertySource[] = [];
    if (Array.isArray(schema.allOf)) {
      this.composeAllOf(location, schema, struct, sources);
    } else {
      sources.push({ location, schema });
    }
    if (isObject(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0 && isObject(schema.properties)) {
      this.warn(
        child(location, 'additionalProperties'),
        `additionalProperties beside properties cannot be expressed; struct ${name} keeps only the properties`,
      );
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword])) {
        this.warn(child(location, keyword), `${keyword} beside properties is ignored; struct ${name} keeps only the properties`);
      }
    }
    this.addFields(struct, sources);
  }

  /** Converts the queued struct bodies (unless that is already under way further up the stack). */
  private runDeferred(): void {
    if (this.runningDeferred) return;
    this.runningDeferred = true;
    try {
      while (this.deferredHead < this.deferred.length) {
        const body = this.deferred[this.deferredHead]!;
        this.deferred[this.deferredHead++] = undefined;
        body();
      }
      this.deferred = [];
      this.deferredHead = 0;
    } finally {
      this.runningDeferred = false;
    }
  }

  /**
   * allOf: the first `$ref` to an object schema becomes `extends`; the inline members (and any
   * further `$ref`s, with a warning) give the struct's own fields. Without a `$ref` everything is
   * flattened, with a warning.
   */
  private composeAllOf(location: Location, schema: Schema, struct: StructDecl, sources: PropertySource[]): void {
    const allOfLocation = child(location, 'allOf');
    const members = (schema.allOf as unknown[]).map((member, i) => ({ location: child(location, 'allOf', i), schema: member }));
    const refs = members.filter(
      (m) => isObject(m.schema) && typeof m.schema.$ref === 'string' && this.isObjectSchema(m.location, m.schema),
    );
    const name = struct.name.text;
    const seen = new Set([locationKey(location)]);
    if (refs.length === 0) {
      this.warn(allOfLocation, `allOf without a $ref: the properties of its members are flattened into struct ${name}`);
    } else {
      const parent = this.typeOf(refs[0].location, refs[0].schema, `${name}_parent`);
      const parentName = parent.type.kind === 'named' ? parent.type.name : undefined;
      if (parentName !== undefined && this.structs.has(parentName) && this.inheritanceRoot(parentName) !== name) {
        struct.extends = { text: parentName, span: this.ctx.span };
        this.inheritanceRoots.set(name, parentName);
      } else {
        this.warn(refs[0].location, `allOf $ref would make ${name} inherit from itself; its properties are flattened instead`);
        this.flatten(refs[0].location, refs[0].schema, sources, seen);
      }
      if (refs.length > 1) {
        const others = refs.slice(1).map((r) => String((r.schema as Schema).$ref));
        this.warn(
          allOfLocation,
          `allOf with ${refs.length} $refs: the first is the parent of struct ${name}; the properties of ${others.join(', ')} are copied into it`,
        );
      }
    }
    for (const member of members) {
      if (refs.length > 0 && member === refs[0]) continue;
      this.flatten(member.location, member.schema, sources, seen);
    }
    if (isObject(schema.properties) || Array.isArray(schema.required)) sources.push({ location, schema });
  }

  /** The struct at the top of `name`'s inheritance tree, as far as `extends` is known yet. */
  private inheritanceRoot(name: string): string {
    let root = name;
    for (let up = this.inheritanceRoots.get(root); up !== undefined; up = this.inheritanceRoots.get(root)) root = up;
    // Path compression: every struct on the way now points at the root.
    for (let at = name, up = this.inheritanceRoots.get(at); up !== undefined && up !== root; at = up, up = this.inheritanceRoots.get(at)) {
      this.inheritanceRoots.set(at, root);
    }
    return root;
  }

  /**
   * Collects the property sources of a schema and, through `$ref`s and `allOf` members, of the
   * schemas it is made of: members first, in order, then the schema itself (a walk with its own stack).
   */
  private flatten(location: Location, schema: unknown, sources: PropertySource[], seen: Set<string>): void {
    const stack: { location: Location; schema: unknown; emit: boolean }[] = [{ location, schema, emit: false }];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!isObject(node.schema)) continue;
      if (node.emit) {
        sources.push({ location: node.location, schema: node.schema });
        continue;
      }
      const key = locationKey(node.location);
      if (seen.has(key)) continue;
      seen.add(key);
      if (typeof node.schema.$ref === 'string') {
        const target = this.ctx.documents.resolve(node.schema.$ref, node.location);
        stack.push({ location: target.location, schema: target.value, emit: false });
        continue;
      }
      if (isObject(node.schema.properties) || Array.isArray(node.schema.required))
        stack.push({ location: node.location, schema: node.schema, emit: true });
      if (Array.isArray(node.schema.allOf)) {
        for (let i = node.schema.allOf.length - 1; i >= 0; i--) {
          stack.push({ location: child(node.location, 'allOf', i), schema: node.schema.allOf[i], emit: false });
        }
      }
    }
  }

  private addFields(struct: StructDecl, sources: PropertySource[]): void {
    const required = new Set(sources.flatMap((s) => (Array.isArray(s.schema.required) ? s.schema.required : [])));
    const scope = new NameScope();
    const wireNames = new Set<string>();
    for (const source of sources) {
      if (!isObject(source.schema.properties)) continue;
      for (const [property, propertySchema] of Object.entries(source.schema.properties)) {
        if (wireNames.has(property) || propertySchema === false) continue;
        wireNames.add(property);
        const location = child(source.location, 'properties', property);
        const byRule = this.ctx.keepIdentifiers && isValidIdentifier(property) ? property : camelCaseWords(property);
        const fieldName = scope.claim(this.ctx.keepIdentifiers && isValidIdentifier(property) ? property : camelCaseName(property));
        if (fieldName !== byRule) {
          this.warn(
            location,
            `property "${property}" of struct ${struct.name.text} is written as field ${fieldName} (a valid unique identifier)`,
          );
        }
        let type: TypeResult;
        try {
          type = this.typeOf(location, propertySchema, `${struct.name.text}_${fieldName}`);
        } catch (error) {
          if (!(error instanceof BinarySchemaError)) throw error;
          this.ctx.binary.drop(error.pointer, `field ${fieldName} of struct ${struct.name.text}`);
          continue;
        }
        const field: Field = {
          name: { text: fieldName, span: this.ctx.span },
          type: type.type,
          optional: !required.has(property) || type.nullable,
          span: this.ctx.span,
        };
        const attributes = attributesFromSchema(this.keywordSource(location, propertySchema), field.type, field.optional, this.ctx.span);
        if (attributes) field.attributes = attributes;
        const comment = isObject(propertySchema)
          ? withDocTags(this.describedBy(propertySchema), {
              deprecated: propertySchema.deprecated,
              example: schemaExample(propertySchema),
            })
          : undefined;
        if (comment !== undefined) field.comment = comment;
        this.fieldPointers.set(field, displayPointer(location));
        this.ctx.examplePointers.set(field, displayPointer(location));
        struct.fields.push(field);
      }
    }
  }

  /**
   * Where the keywords of a schema are read (attributes-in.ts): the schemas it leads to through
   * `$ref`s, a one-member `allOf` and a "T or null" `oneOf`/`anyOf`, outermost first.
   */
  keywordSource(location: Location, schema: unknown): KeywordSource {
    const located = new Map<Schema, Location>();
    const chainOf = (start: Location, first: unknown): Schema[] => {
      const chain: Schema[] = [];
      let at = start;
      let current = first;
      // Bounded: a `$ref` loop is reported where the type is converted.
      while (isObject(current) && chain.length < 32 && !chain.includes(current)) {
        chain.push(current);
        located.set(current, at);
        const next = this.keywordStep(at, current);
        if (!next) break;
        ({ location: at, value: current } = next);
      }
      return chain;
    };
    const element = (chain: KeywordChain): KeywordChain | undefined => {
      for (const outer of chain) {
        const at = located.get(outer)!;
        if (isObject(outer.items)) return chainOf(child(at, 'items'), outer.items);
        if (isObject(outer.additionalProperties)) return chainOf(child(at, 'additionalProperties'), outer.additionalProperties);
      }
      return undefined;
    };
    return { chain: chainOf(location, schema), element };
  }

  private keywordStep(location: Location, schema: Schema): { location: Location; value: unknown } | undefined {
    if (typeof schema.$ref === 'string') {
      try {
        return this.ctx.documents.resolve(schema.$ref, location);
      } catch {
        return undefined;
      }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return { location: child(location, 'allOf', 0), value: schema.allOf[0] };
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const members = schema[keyword];
      if (!Array.isArray(members)) continue;
      const kept = members.map((member, i) => ({ member, i })).filter(({ member }) => !isNullSchema(member));
      if (kept.length === 1) return { location: child(location, keyword, kept[0].i), value: kept[0].member };
    }
    return undefined;
  }

  private declareEnum(location: Location, schema: Schema, wanted: string): TypeResult {
    const name = this.claimName(location, schema, wanted);
    const descriptions = schema['x-enum-descriptions'] ?? schema['x-enumDescriptions'];
    const scope = new NameScope();
    const deprecatedValues = deprecatedEnumValues(schema);
    const values: EnumValue[] = [];
    (schema.enum as unknown[]).forEach((value, i) => {
      if (typeof value !== 'string') return;
      const valueName = scope.claim(enumValueName(value));
      if (valueName !== value)
        this.warn(child(location, 'enum', i), `enum value "${value}" of ${name} is written as ${valueName} (a valid unique identifier)`);
      const enumValue: EnumValue = { name: { text: valueName, span: this.ctx.span }, span: this.ctx.span };
      const comment = withDocTags(
        docComment(
          Array.isArray(descriptions) ? descriptions[i] : isObject(descriptions) ? descriptions[value] : undefined,
          this.ctx.ownDocument,
        ),
        { deprecated: deprecatedValues.has(value) },
      );
      if (comment !== undefined) enumValue.comment = comment;
      values.push(enumValue);
    });
    const decl: EnumDecl = { kind: 'enum', name: { text: name, span: this.ctx.span }, values, span: this.ctx.span };
    const comment = withDocTags(this.describedBy(schema), {
      deprecated: schema.deprecated,
      example: schemaExample(schema),
    });
    if (comment !== undefined) decl.comment = comment;
    this.ctx.examplePointers.set(decl, displayPointer(location));
    this.declarations.push(decl);
    const result: TypeResult = { type: this.namedType(name), nullable: allowsNull(schema) };
    this.named.set(locationKey(location), result);
    return result;
  }

  /**
   * A numeric enum becomes a struct of constants: one field per value, named `v<value>` (`-` written
   * `minus`, other non-alphanumerics `_`: `-1` -> `vminus1`, `2.5` -> `v2_5`), typed int (all values
   * integers) or float, with the value as its doc comment. Schemas using the enum are typed int/float.
   */
  private declareNumericEnum(location: Location, schema: Schema, wanted: string): TypeResult {
    const name = this.claimName(location, schema, wanted);
    const numbers = (schema.enum as unknown[]).filter((v): v is number => typeof v === 'number');
    const integral = numbers.every((v) => Number.isInteger(v)) && !typeList(schema).includes('number');
    const valueType = this.builtIn(integral ? 'int' : 'float');
    const scope = new NameScope();
    const struct: StructDecl = {
      kind: 'struct',
      name: { text: name, span: this.ctx.span },
      fields: numbers.map((value) => ({
        name: {
          text: scope.claim(
            `v${String(value)
              .replace(/-/g, 'minus')
              .replace(/[^A-Za-z0-9]/g, '_')}`,
          ),
          span: this.ctx.span,
        },
        type: valueType,
        optional: false,
        comment: `= ${value}`,
        span: this.ctx.span,
      })),
      span: this.ctx.span,
    };
    const description = docComment(schema.description, this.ctx.ownDocument);
    struct.comment = `${description !== undefined ? `${description}\n` : ''}Numeric enum: the values ${numbers.join(', ')}.`;
    this.declarations.push(struct);
    this.structs.set(name, struct);
    this.constantStructs.add(name);
    this.warn(
      child(location, 'enum'),
      `numeric enum converted to struct ${name} of constants (one ${valueType.kind === 'builtIn' ? valueType.name : ''} field per value); schemas using it are typed ${integral ? 'int' : 'float'}`,
    );
    const result: TypeResult = { type: valueType, nullable: allowsNull(schema) };
    this.named.set(locationKey(location), result);
    return result;
  }

  /** `{}` or `true`: any JSON value, `json` (which holds null too). */
  private anyValue(_location: Location): TypeResult {
    return { type: this.builtIn('json'), nullable: false };
  }

  /** Types that need no declaration: built-ins, arrays and maps (`follow` has taken care of `allOf`/`oneOf`/`anyOf`). */
  private inlineType(location: Location, schema: Schema, name: string): TypeResult {
    // `nullable` alone (3.0's json, `{ nullable: true }`) adds null to a schema that already allows everything.
    const annotations = [
      'description',
      'title',
      'example',
      'examples',
      'default',
      'deprecated',
      'readOnly',
      'writeOnly',
      'externalDocs',
      'nullable',
    ];
    if (Object.keys(schema).every((k) => annotations.includes(k) || k.startsWith('x-'))) return this.anyValue(location);
    const types = typeList(schema);
    if (types.length > 1)
      this.warn(child(location, 'type'), `several types (${types.join(', ')}): the IDL has no unions; ${types[0]} is used`);
    // `type: "null"` (or `[null]`) is no type of its own in typeList, which leaves null out.
    const onlyNull =
      schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length > 0 && schema.type.every((t) => t === 'null'));
    const type = types[0] ?? (onlyNull ? 'null' : inferType(schema));
    switch (type) {
      case 'string':
        if (schema.format === 'binary') throw new BinarySchemaError(displayPointer(location));
        return { type: this.builtIn(stringTypeOf(schema)), nullable: false };
      case 'integer':
        return { type: this.builtIn('int'), nullable: false };
      case 'number':
        return { type: this.builtIn('float'), nullable: false };
      case 'boolean':
        return { type: this.builtIn('bool'), nullable: false };
      case 'array': {
        if (schema.items === undefined || Array.isArray(schema.items)) {
          this.warn(location, 'array without a single items schema: used []string');
          return { type: { kind: 'array', element: this.builtIn('string'), span: this.ctx.span }, nullable: false };
        }
        const element = this.nestedType(location, schema, 'items', `${name}_item`);
        return { type: { kind: 'array', element, span: this.ctx.span }, nullable: false };
      }
      case 'object':
        // A free-form object (`additionalProperties: true`, no properties): any JSON value.
        if (schema.additionalProperties === true) return { type: this.builtIn('json'), nullable: false };
        return {
          type: { kind: 'map', value: this.nestedType(location, schema, 'additionalProperties', `${name}_value`), span: this.ctx.span },
          nullable: false,
        };
      case 'null':
        this.warn(location, 'a schema that only allows null: used bool [optional]');
        return { type: this.builtIn('bool'), nullable: true };
      default:
        this.warn(location, `schema without a type the IDL knows${type ? ` (${type})` : ''}: used string`);
        return { type: this.builtIn('string'), nullable: false };
    }
  }

  /**
   * The element type of an array (`items`) or the value type of a map (`additionalProperties`).
   *
   * @throws ConversionError when the array/map would be nested deeper than the IDL allows.
   */
  private nestedType(location: Location, schema: Schema, keyword: 'items' | 'additionalProperties', name: string): TypeRef {
    const tooDeep = (): ConversionError =>
      new ConversionError(
        displayPointer(location),
        `arrays and maps nested more than ${MAX_TYPE_DEPTH} levels deep: the IDL allows at most ${MAX_TYPE_DEPTH}`,
      );
    // Counted on the way down, so a document nested far deeper stops here, not at the end of the stack ...
    if (this.typeNesting >= MAX_TYPE_DEPTH) throw tooDeep();
    this.typeNesting++;
    let inner: TypeRef;
    try {
      inner = this.typeOf(child(location, keyword), schema[keyword], name).type;
    } finally {
      this.typeNesting--;
    }
    // ... and on the result, which may be a type converted before, at another depth.
    if (typeDepth(inner) >= MAX_TYPE_DEPTH) throw tooDeep();
    return inner;
  }

  /**
   * Post-passes once everything is converted: inherited fields a child redefines are resolved, then
   * cycles of required struct-typed fields are broken (see struct-passes.ts).
   */
  finish(): void {
    this.runDeferred();
    this.dropTagFields();
    settleInheritance(this.structs, this.fieldPointers, (pointer, message) => this.warn(pointer, message));
    breakRequiredCycles(this.structs, this.fieldPointers, (pointer, message) => this.warn(pointer, message));
  }

  /**
   * Drops hoisted declarations that nothing refers to any more, because their only user was dropped
   * (a redefined child property, an operation with binary data). What component schemas became
   * always stays.
   */
  removeUnreferenced(interfaces: readonly InterfaceDecl[]): void {
    const byName = new Map(this.declarations.map((d) => [d.name.text, d]));
    const reached = new Set<string>();
    const pending: string[] = [...this.componentNames.values(), ...this.constantStructs];
    const visitType = (type: TypeRef): void => {
      if (type.kind === 'array') visitType(type.element);
      else if (type.kind === 'map') visitType(type.value);
      else if (type.kind === 'named') pending.push(type.name);
    };
    this.componentTypes.forEach(visitType);
    for (const iface of interfaces) {
      for (const method of iface.methods) {
        for (const p of method.parameters) visitType(p.type);
        visitType(method.returnType);
      }
    }
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (reached.has(name)) continue;
      reached.add(name);
      const decl = byName.get(name);
      if (decl?.kind === 'union') for (const variant of decl.variants) pending.push(variant.type.text);
      if (decl?.kind !== 'struct') continue;
      if (decl.extends) pending.push(decl.extends.text);
      for (const f of decl.fields) visitType(f.type);
    }
    this.declarations = this.declarations.filter((d) => reached.has(d.name.text));
  }
}

/** How many arrays and maps a type is nested in (counting stops past the IDL's limit). */
function typeDepth(type: TypeRef): number {
  let depth = 0;
  for (let at = type; depth <= MAX_TYPE_DEPTH && (at.kind === 'array' || at.kind === 'map'); depth++)
    at = at.kind === 'array' ? at.element : at.value;
  return depth;
}

/** Whether null is one of a type's own values (json): such a type is never made `[optional]` for allowing null. */
function holdsNull(type: TypeRef): boolean {
  return type.kind === 'builtIn' && type.name === 'json';
}

/**
 * The IDL type of a string schema: `format: date-time` a timestamp, `format: date` a date,
 * `format: byte` (3.0) or `contentEncoding: base64` (3.1) bytes, any other a string.
 */
function stringTypeOf(schema: Schema): 'string' | 'timestamp' | 'date' | 'bytes' {
  if (schema.format === 'date-time') return 'timestamp';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'byte' || schema.contentEncoding === 'base64') return 'bytes';
  return 'string';
}

/** The type of a schema without `type`, from its other keywords. */
function inferType(schema: Schema): string | undefined {
  if (schema.additionalProperties !== undefined || schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  const sample = Array.isArray(schema.enum) ? schema.enum.find((v) => v !== null) : schema.const;
  if (typeof sample === 'string') return 'string';
  if (typeof sample === 'number') return Number.isInteger(sample) ? 'integer' : 'number';
  if (typeof sample === 'boolean') return 'boolean';
  if (schema.format === 'binary') return 'string';
  return undefined;
}

/** A short description of a schema for warnings. */
function describe(schema: unknown): string {
  if (!isObject(schema)) return 'schema';
  if (typeof schema.$ref === 'string') return schema.$ref;
  if (typeof schema.title === 'string' && schema.title.trim() !== '') return schema.title;
  const types = typeList(schema);
  return types.length > 0 ? types.join('|') : 'schema';
}
