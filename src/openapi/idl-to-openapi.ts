/**
 * IDL -> OpenAPI: describes the REST binding of checked IDL models (docs/protocol.md §3) as an OpenAPI
 * 3.1.0 (default) or 3.0.3 document.
 *
 * Every method becomes `POST /<Interface>/<method>` whose request body is an object of the named
 * parameters and whose `200` response is the result. Structs, enums and maps map as docs/openapi.md's
 * "Type mapping: IDL to OpenAPI" says. Several models share one document: see `docs/openapi.md`.
 */
import {
  type Attribute,
  discriminatorOf,
  type EnumDecl,
  type Field,
  type InterfaceDecl,
  type Method,
  type Name,
  type Parameter,
  type SourceSpan,
  type StructDecl,
  type TypeRef,
  type UnionDecl,
} from '../idl/ast.js';
import { constraintsOf, defaultOf } from '../idl/attributes.js';
import { docCommentParts, docDescription, docTags } from '../idl/doc-tags.js';
import { withConstraints, withDefault } from './constraint-keywords.js';
import { allFields, type IdlModel } from '../idl/model.js';
import { ERROR_STATUS, EVENT_STREAM, EXTENSION, RPC_ERROR_MARKER, RPC_ERROR_SCHEMA_NAME } from './error-binding.js';
import { sourceFileKey, uncoveredModels } from './model-coverage.js';
import { nullableCopy, nullableCopyName, withNull } from './nullable-copy.js';
import { UNION_VARIANT_MARKER, unionVariantName } from './union-variants.js';
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

/** 2^53 − 1: the largest integer the runtime accepts for `int` (docs/protocol.md). */
const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

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

/** What the writer names: a declaration with the place it is declared. */
interface Declared {
  name: Name;
  span: SourceSpan;
}

/** One key per declaration, the same in every model that imports its file. */
function declarationKey(declaration: Declared): string {
  return `${sourceFileKey(declaration.span.file)}#${declaration.name.text}`;
}

/** A nullable copy a 3.0 document needs: its name and the declaration it copies. */
interface NullableCopy {
  name: string;
  declaration: StructDecl | EnumDecl | UnionDecl;
  names: ModelNames;
}

/** A declaration a component schema describes. */
type SchemaDeclaration = StructDecl | EnumDecl | UnionDecl;

/** The declaration of the struct, enum or union `typeName` names in `model` (unions are not in `types`). */
function typeDeclaration(model: IdlModel, typeName: string): SchemaDeclaration | undefined {
  return model.types.get(typeName) ?? model.unionsByName?.get(typeName);
}

class OpenApiWriter {
  private readonly sink = new WarningSink();
  private readonly names: ModelNames[];
  private readonly errorSchemaName: string;
  /** 3.0: component name -> its nullable copy, for every component referenced nullable. */
  private readonly nullableCopies = new Map<string, NullableCopy>();
  /** Every component name given so far (the IDL's, the error body's, the nullable copies'). */
  private readonly takenSchemaNames: Set<string>;
  /** 3.0: the types (declaration keys) only ever referenced nullable, whose component is nullable itself. */
  private readonly nullableOnly: ReadonlySet<string>;
  /** Each union's variant components by union declaration key: tag -> component name. */
  private readonly variantNames = new Map<string, Map<string, string>>();

  constructor(
    private readonly models: IdlModel[],
    private readonly version: OpenApiVersion,
    private readonly httpStatus: Readonly<Record<string, number>>,
  ) {
    this.names = this.assignNames();
    this.checkHttpStatus();
    const taken = new Set(this.names.flatMap((n) => [...n.schemas.values()]));
    let errorSchemaName = RPC_ERROR_SCHEMA_NAME;
    for (let i = 2; taken.has(errorSchemaName); i++) errorSchemaName = `${RPC_ERROR_SCHEMA_NAME}_${i}`;
    this.errorSchemaName = errorSchemaName;
    this.takenSchemaNames = taken.add(errorSchemaName);
    this.nullableOnly = version === '3.0' ? this.typesOnlyReferencedNullable() : new Set();
  }

  /**
   * The types every reference to which is nullable (an `[optional]` field or result), by declaration
   * key. A struct that extends another is left out: its nullable component could not `allOf` its
   * parent (whose `type` forbids null), so it gets a copy with the inherited fields written out.
   */
  private typesOnlyReferencedNullable(): Set<string> {
    const plain = new Set<string>();
    const nullable = new Set<string>();
    const children = new Set<string>();
    for (const { model } of this.names) {
      const add = (uses: Set<string>, typeName: string) => {
        const declaration = typeDeclaration(model, typeName);
        if (declaration !== undefined) uses.add(declarationKey(declaration));
      };
      const visit = (type: TypeRef, optional: boolean): void => {
        if (type.kind === 'array') visit(type.element, false);
        else if (type.kind === 'map') visit(type.value, false);
        else if (type.kind === 'named') add(optional ? nullable : plain, type.name);
      };
      for (const struct of model.structs) {
        if (struct.extends !== undefined) {
          add(plain, struct.extends.text);
          children.add(declarationKey(struct));
        }
        for (const field of struct.fields) visit(field.type, field.optional);
      }
      // A union references its variants' components plainly (`allOf`).
      for (const union of model.unions ?? []) for (const variant of union.variants) add(plain, variant.type.text);
      for (const method of model.interfaces.flatMap((i) => i.methods)) {
        for (const parameter of method.parameters) visit(parameter.type, false);
        visit(method.returnType, method.returnOptional);
      }
    }
    return new Set([...nullable].filter((key) => !plain.has(key) && !children.has(key)));
  }

  write(infoVersion: string): IdlToOpenApiResult {
    const document: Record<string, unknown> = {
      openapi: this.version === '3.1' ? '3.1.0' : '3.0.3',
      info: this.info(infoVersion),
      // The binding has no authentication of its own (authentication is left to the deployment).
      security: [],
      tags: this.once((names) => names.model.interfaces).map(({ names, declaration: iface }) => {
        const tag: Schema = {
          name: names.interfaces.get(iface.name.text),
          description: `IDL interface: ${iface.name.text}`,
        };
        if (iface.comment !== undefined) tag[EXTENSION.comment] = iface.comment;
        return tag;
      }),
      paths: this.paths(),
      components: { schemas: this.schemas() },
    };
    const errors = this.once((names) => names.model.errors).map(({ names, declaration: error }) => {
      const entry: Schema = { code: error.code, name: names.errors.get(error.name.text), message: error.message };
      const description = docDescription(error.comment);
      if (description !== undefined) entry.description = description;
      return entry;
    });
    if (errors.length > 0) document[EXTENSION.errors] = errors;
    return { document, warnings: this.sink.warnings };
  }

  /**
   * The declarations `select` picks from every model, with the model's names; a declaration two
   * models import from the same file comes once, with the first model's.
   */
  private once<T extends Declared>(select: (names: ModelNames) => readonly T[]): { names: ModelNames; declaration: T }[] {
    const seen = new Set<string>();
    return this.names.flatMap((names) =>
      select(names)
        .filter((declaration) => {
          const key = declarationKey(declaration);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        })
        .map((declaration) => ({ names, declaration })),
    );
  }

  /**
   * Bare names, except where models declare different things of one name: then
   * `<namespace>_<Name>` for all of them. One declaration several models import is not a clash: it
   * has one name, that of the first model holding it.
   */
  private assignNames(): ModelNames[] {
    const clashes = (lists: readonly Declared[][]) => {
      const declarations = new Map<string, Set<string>>();
      for (const declaration of lists.flat()) {
        const keys = declarations.get(declaration.name.text) ?? new Set<string>();
        keys.add(declarationKey(declaration));
        declarations.set(declaration.name.text, keys);
      }
      return new Set([...declarations].filter(([, keys]) => keys.size > 1).map(([name]) => name));
    };
    const typeClashes = clashes(this.models.map((m) => [...m.types.values(), ...(m.unions ?? [])]));
    const interfaceClashes = clashes(this.models.map((m) => m.interfaces));
    const errorClashes = clashes(this.models.map((m) => m.errors));
    /** The document's name of each declaration, by its key. */
    const named = new Map<string, string>();
    /** The name in the document; `where` gives the pointer of what carries the prefixed name. */
    const name = (model: IdlModel, declaration: Declared, clashing: Set<string>, what: string, where: (prefixed: string) => string) => {
      const key = declarationKey(declaration);
      const bare = declaration.name.text;
      let chosen = named.get(key);
      if (chosen !== undefined) return chosen;
      chosen = clashing.has(bare) ? `${model.namespace}_${bare}` : bare;
      if (chosen !== bare) {
        this.sink.warn(
          where(chosen),
          `${what} ${bare} is declared in several namespaces; namespace ${model.namespace} writes it as ${chosen}`,
        );
      }
      named.set(key, chosen);
      return chosen;
    };
    return this.models.map((model) => ({
      model,
      schemas: new Map(
        [...model.types, ...(model.unionsByName ?? [])].map(([t, decl]) => [
          t,
          name(model, decl, typeClashes, 'type', (p) => joinPointer('/components/schemas', p)),
        ]),
      ),
      interfaces: new Map(
        model.interfaces.map((i) => [
          i.name.text,
          name(model, i, interfaceClashes, 'interface', (p) =>
            i.methods.length > 0 ? joinPointer('/paths', `/${p}/${i.methods[0].name.text}`) : '/tags',
          ),
        ]),
      ),
      errors: new Map(model.errors.map((e) => [e.name.text, name(model, e, errorClashes, 'error', () => `/${EXTENSION.errors}`)])),
    }));
  }

  private info(infoVersion: string): Schema {
    const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const info: Schema = {
      title: this.models.map((m) => capitalize(m.namespace)).join(', ') || 'IDL',
      description: this.models
        .map((m) => {
          const lines = [`Namespace: ${m.namespace}`];
          const imported = [...new Set(m.files.flatMap((file) => (file.namespace === undefined ? [] : [file.namespace])))];
          if (imported.length > 0) lines.push(`Imported namespaces: ${imported.join(', ')}`);
          lines.push(`Interfaces: ${m.interfaces.length}`, `Structs: ${m.structs.length}`, `Enums: ${m.enums.length}`);
          return lines.join('\n');
        })
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
    // Enums, structs and unions interleaved as in the source: the root file's first, then each imported file's.
    const inSourceOrder = (names: ModelNames) => {
      const fileRank = new Map(names.model.files.map((file, index) => [sourceFileKey(file.fileName), index]));
      const rank = (decl: Declared) => fileRank.get(sourceFileKey(decl.span.file)) ?? 0;
      return [...names.model.enums, ...names.model.structs, ...(names.model.unions ?? [])].sort(
        (a, b) => rank(a) - rank(b) || a.span.start.offset - b.span.start.offset,
      );
    };
    for (const { names, declaration } of this.once(inSourceOrder)) {
      const schema = this.declarationSchema(declaration, names);
      schemas[names.schemas.get(declaration.name.text)!] = this.nullableOnly.has(declarationKey(declaration)) ? withNull(schema) : schema;
      if (declaration.kind === 'union') Object.assign(schemas, this.variantSchemas(declaration, names));
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
    return this.withNullableCopies(schemas);
  }

  /**
   * The component schemas with each nullable copy right after the schema it copies. Every copy is
   * asked for by then: operations are written before the components, and a copy's fields are the
   * fields of the structs already written.
   */
  private withNullableCopies(schemas: Record<string, Schema>): Record<string, Schema> {
    if (this.nullableCopies.size === 0) return schemas;
    const ordered: Record<string, Schema> = {};
    for (const [name, schema] of Object.entries(schemas)) {
      ordered[name] = schema;
      const copy = this.nullableCopies.get(name);
      if (copy === undefined) continue;
      const plain =
        copy.declaration.kind === 'struct'
          ? this.flattenedStructSchema(copy.declaration, copy.names)
          : this.declarationSchema(copy.declaration, copy.names);
      ordered[copy.name] = nullableCopy(plain, name);
    }
    return ordered;
  }

  /** The name of the nullable copy of the component `schemaName` (of `declaration`), made on first use. */
  private nullableCopyOf(schemaName: string, declaration: SchemaDeclaration, names: ModelNames): string {
    let copy = this.nullableCopies.get(schemaName);
    if (copy === undefined) {
      copy = { name: nullableCopyName(schemaName, this.takenSchemaNames), declaration, names };
      this.takenSchemaNames.add(copy.name);
      this.nullableCopies.set(schemaName, copy);
    }
    return copy.name;
  }

  private declarationSchema(declaration: SchemaDeclaration, names: ModelNames): Schema {
    if (declaration.kind === 'enum') return this.enumSchema(declaration);
    if (declaration.kind === 'union') return this.unionSchema(declaration, names);
    return this.structSchema(declaration, names);
  }

  /**
   * A union (docs/openapi.md, "Unions"): `oneOf` a `$ref` to one variant component per variant (see
   * `variantSchemas`) and `discriminator` with `propertyName` and a `mapping` from each tag to that
   * component. `type: object` beside it lets a 3.0 nullable copy add null.
   */
  private unionSchema(decl: UnionDecl, names: ModelNames): Schema {
    const mapping: Record<string, string> = {};
    for (const [tag, name] of this.variantNamesOf(decl, names)) mapping[tag] = this.ref(name);
    const oneOf = Object.values(mapping).map(($ref) => ({ $ref }));
    return this.describe({ type: 'object', oneOf, discriminator: { propertyName: discriminatorOf(decl), mapping } }, decl.comment, true);
  }

  /**
   * The variant components of a union, `<Union>_<tag>`: the variant's struct `allOf` an object that
   * requires the tag (`const`, 3.0 `enum` of one value). Each is what the wire carries for that tag,
   * so a plain JSON Schema validator accepts exactly what the server accepts, a generator's type for
   * it has the tag, and linters see every `oneOf` member named (a discriminator can only select a
   * named schema). The marker names the union, so reading the document back skips them.
   */
  private variantSchemas(decl: UnionDecl, names: ModelNames): Record<string, Schema> {
    const propertyName = discriminatorOf(decl);
    const unionName = names.schemas.get(decl.name.text)!;
    const variantNames = this.variantNamesOf(decl, names);
    const schemas: Record<string, Schema> = {};
    for (const variant of decl.variants) {
      const tag = variant.tag.text;
      const tagSchema = this.version === '3.1' ? { type: 'string', const: tag } : { type: 'string', enum: [tag] };
      const schema: Schema = {
        allOf: [
          { $ref: this.ref(names.schemas.get(variant.type.text)!) },
          { type: 'object', properties: { [propertyName]: tagSchema }, required: [propertyName] },
        ],
        [UNION_VARIANT_MARKER]: unionName,
      };
      schemas[variantNames.get(tag)!] = this.describe(schema, variant.comment);
    }
    return schemas;
  }

  /** Tag -> variant component name for a union, chosen once (unique among every component name). */
  private variantNamesOf(decl: UnionDecl, names: ModelNames): Map<string, string> {
    const key = declarationKey(decl);
    let chosen = this.variantNames.get(key);
    if (chosen === undefined) {
      chosen = new Map();
      for (const variant of decl.variants) {
        const name = unionVariantName(names.schemas.get(decl.name.text)!, variant.tag.text, this.takenSchemaNames);
        this.takenSchemaNames.add(name);
        chosen.set(variant.tag.text, name);
      }
      this.variantNames.set(key, chosen);
    }
    return chosen;
  }

  private enumSchema(decl: EnumDecl): Schema {
    const schema: Schema = { type: 'string' };
    const description = this.descriptionOf(decl.comment);
    if (description !== undefined) schema.description = description;
    schema.enum = decl.values.map((v) => v.name.text);
    const valueDescriptions = decl.values.map((v) => this.descriptionOf(v.comment));
    if (valueDescriptions.some((d) => d !== undefined)) {
      // null: no comment (an empty string is a comment of one empty line).
      schema[EXTENSION.enumDescriptions] = valueDescriptions.map((d) => d ?? null);
    }
    const deprecatedValues = decl.values.filter((v) => docTags(v.comment).deprecated !== undefined).map((v) => v.name.text);
    if (deprecatedValues.length > 0) schema[EXTENSION.deprecatedValues] = deprecatedValues;
    return this.tagged(schema, decl.comment);
  }

  private structSchema(decl: StructDecl, names: ModelNames): Schema {
    const own = this.objectSchema(decl.fields, names);
    if (decl.extends === undefined) return this.describe(own, decl.comment, true);
    const parent = { $ref: this.ref(names.schemas.get(decl.extends.text)!) };
    return this.describe({ type: 'object', allOf: [parent, own] }, decl.comment, true);
  }

  /** A struct as one object schema, inherited fields first (a nullable copy cannot `allOf` its parent). */
  private flattenedStructSchema(decl: StructDecl, names: ModelNames): Schema {
    return this.describe(this.objectSchema(allFields(names.model, decl), names), decl.comment, true);
  }

  /** `type: object` with the fields as properties, in order, and the required ones. */
  private objectSchema(fields: readonly Field[], names: ModelNames): Schema {
    const schema: Schema = { type: 'object' };
    const properties: Record<string, Schema> = {};
    for (const field of fields) {
      const schema = this.typeSchema(field.type, names, field.optional, field.attributes);
      properties[field.name.text] = this.describe(withDefault(schema, defaultOf(field.attributes), this.version), field.comment, true);
    }
    if (fields.length > 0) schema.properties = properties;
    const required = fields.filter((f) => !f.optional).map((f) => f.name.text);
    if (required.length > 0) schema.required = required;
    return schema;
  }

  /**
   * Adds the description of a doc comment (without its tag lines) and, with `withTags`, what its
   * tags say (`deprecated`, examples); in 3.0 a `$ref` cannot have siblings, so it is wrapped in `allOf`.
   */
  private describe(schema: Schema, comment: string | undefined, withTags = false): Schema {
    const description = this.descriptionOf(comment);
    const annotations: Schema = {};
    if (description !== undefined) annotations.description = description;
    if (withTags) Object.assign(annotations, this.tagged({}, comment));
    if (Object.keys(annotations).length === 0) return schema;
    if ('$ref' in schema && this.version === '3.0') return { allOf: [schema], ...annotations };
    return { ...schema, ...annotations };
  }

  /** The description of a doc comment: the comment without its tag lines. */
  private descriptionOf(comment: string | undefined): string | undefined {
    return comment?.includes('@') ? docDescription(comment) : comment;
  }

  /**
   * `schema` with what the doc tags of `comment` say in schema keywords: `deprecated: true`, and the
   * `@example` values as `examples` (3.1) or the first as `example` (3.0).
   */
  private tagged(schema: Schema, comment: string | undefined): Schema {
    if (!comment?.includes('@')) return schema;
    const tags = docTags(comment);
    // The exact comment, so that converting the document back keeps the tags as written (a
    // deprecation's reason has no OpenAPI keyword).
    if (docCommentParts(comment).tags.length > 0) schema[EXTENSION.comment] = comment;
    if (tags.deprecated !== undefined) schema.deprecated = true;
    if (tags.examples !== undefined) {
      if (this.version === '3.1') schema.examples = tags.examples;
      else schema.example = tags.examples[0];
    }
    return schema;
  }

  private ref(schemaName: string): string {
    return `#/components/schemas/${schemaName}`;
  }

  /** The schema of an IDL type; `nullable` when the value may be null (`[optional]`). */
  private typeSchema(type: TypeRef, names: ModelNames, nullable = false, attributes?: readonly Attribute[]): Schema {
    const schema = withConstraints(this.plainTypeSchema(type, names), constraintsOf(attributes), this.version);
    if (!nullable) return schema;
    // json's schema `{}` stays as it is: null is one of its values.
    if (type.kind === 'builtIn' && type.name === 'json') return schema;
    if (this.version === '3.1') {
      if ('$ref' in schema) return { oneOf: [schema, { type: 'null' }] };
      return { ...schema, type: [schema.type, 'null'] };
    }
    if (type.kind === 'named') {
      // 3.0.3 has no "$ref or null" that every tool reads (nullable-copy.ts): the component is
      // nullable itself, or a nullable copy of it is referenced.
      const declaration = typeDeclaration(names.model, type.name)!;
      if (this.nullableOnly.has(declarationKey(declaration))) return schema;
      return { $ref: this.ref(this.nullableCopyOf(names.schemas.get(type.name)!, declaration, names)) };
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
          case 'timestamp':
            return { type: 'string', format: 'date-time' };
          case 'date':
            return { type: 'string', format: 'date' };
          case 'bytes':
            return this.version === '3.1' ? { type: 'string', contentEncoding: 'base64' } : { type: 'string', format: 'byte' };
          case 'json':
            // Any JSON value: a schema without constraints. (3.0 would want `nullable: true` for null,
            // but `nullable` without a `type` is not valid 3.0: docs/openapi.md.)
            return {};
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
    const operationIds = new Set<string>();
    for (const { names, declaration: iface } of this.once((n) => n.model.interfaces)) {
      const tag = names.interfaces.get(iface.name.text)!;
      for (const method of iface.methods) {
        const path = `/${tag}/${method.name.text}`;
        const pointer = joinPointer('/paths', path, 'post');
        paths[path] = { post: this.operation(iface, method, names, tag, this.operationId(tag, method, operationIds, pointer), pointer) };
      }
    }
    return paths;
  }

  /**
   * `<Interface>_<method>`, the dots of a qualified interface name written `_`
   * (`inventory_InventoryService_getStock`): generators make function names of operationIds, and a
   * dot is no part of a name in most languages. An id already taken gets a numbered suffix.
   */
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
          [EXTENSION.itemSchema]: this.typeSchema(method.returnType, names, false, method.returnAttributes),
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
              { $ref: this.ref(this.errorSchemaName) },
              { type: 'object', properties: { code: { type: 'integer', format: 'int64', enum: errors.map((e) => e.code) } } },
            ],
          },
        },
      },
    };
  }

  private operationId(tag: string, method: Method, taken: Set<string>, pointer: string): string {
    const wanted = `${tag.replaceAll('.', '_')}_${method.name.text}`;
    let id = wanted;
    for (let i = 2; taken.has(id); i++) id = `${wanted}_${i}`;
    if (id !== wanted) this.sink.warn(joinPointer(pointer, 'operationId'), `operationId ${wanted} is taken; this operation is ${id}`);
    taken.add(id);
    return id;
  }

  private operation(iface: InterfaceDecl, method: Method, names: ModelNames, tag: string, operationId: string, pointer: string): Schema {
    const operation: Schema = {
      operationId,
      tags: [tag],
      // Linters require a non-empty summary: the comment's first non-blank line, else the qualified name.
      summary:
        this.descriptionOf(method.comment)
          ?.split('\n')
          .find((line) => line.trim() !== '')
          ?.trim() ?? `${iface.name.text}.${method.name.text}`,
    };
    // Linters want a description on every operation; the exact comment (or its absence) travels in
    // x-idl-comment, as for tags, so that the default one is not read back as a comment.
    operation.description = this.descriptionOf(method.comment) ?? `IDL method: ${iface.name.text}.${method.name.text}`;
    if (method.comment !== undefined) operation[EXTENSION.comment] = method.comment;
    const tags = docTags(method.comment);
    // A deprecated interface deprecates each of its methods.
    if (tags.deprecated !== undefined || docTags(iface.comment).deprecated !== undefined) operation.deprecated = true;
    if (tags.readonly) operation[EXTENSION.readonly] = true;
    const properties: Record<string, Schema> = {};
    method.parameters.forEach((parameter, index) => {
      const schema = this.typeSchema(parameter.type, names, false, parameter.attributes);
      properties[parameter.name.text] = withDefault(schema, defaultOf(parameter.attributes), this.version);
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
    const errorBody = { 'application/json': { schema: { $ref: this.ref(this.errorSchemaName) } } };
    const responses: Record<string, Schema> = {
      '200': method.stream
        ? this.streamResponse(method, names)
        : {
            description: method.returnOptional ? 'The result, or null.' : 'The result.',
            content: {
              'application/json': this.resultMedia(
                this.typeSchema(method.returnType, names, method.returnOptional, method.returnAttributes),
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
