/**
 * The one schema mapping of the IDL's types (docs/openapi.md, "Type mapping: IDL to OpenAPI"), shared
 * by the OpenAPI converter and the OpenRPC emitter (docs/openrpc.md): the name of each declaration in
 * the document, its component schema (structs, enums, unions with their variant components, OpenAPI
 * 3.0's nullable copies) and the schema of each type reference, with its constraints, default, doc
 * comment and tags. The dialects differ only where their schema languages do: OpenAPI 3.0 has no null
 * type and no `const`; in 3.0 and in JSON Schema draft-07 (OpenRPC's) the siblings of a `$ref` are
 * ignored, so a described or defaulted reference is wrapped in `allOf`.
 */
import {
  type Attribute,
  discriminatorOf,
  type EnumDecl,
  type Field,
  type InterfaceDecl,
  type Name,
  type SourceSpan,
  type StructDecl,
  type TypeRef,
  type UnionDecl,
} from '../idl/ast.js';
import { constraintsOf, defaultOf } from '../idl/attributes.js';
import { docCommentParts, docDescription, docTags } from '../idl/doc-tags.js';
import { allFields, type IdlModel } from '../idl/model.js';
import { withConstraints } from './constraint-keywords.js';
import { EXTENSION } from './error-binding.js';
import { sourceFileKey } from './model-coverage.js';
import { nullableCopy, nullableCopyName, withNull } from './nullable-copy.js';
import { UNION_VARIANT_MARKER, unionVariantName } from './union-variants.js';
import { joinPointer, type WarningSink } from './warnings.js';

/** The schema language of the document: OpenAPI 3.1, OpenAPI 3.0, or JSON Schema draft-07 (OpenRPC). */
export type SchemaDialect = '3.1' | '3.0' | 'draft-07';

type Schema = Record<string, unknown>;

/** 2^53 − 1: the largest integer the runtime accepts for `int` (docs/protocol.md). */
const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

/** How a type of the IDL is written in the document being built. */
export interface ModelNames {
  model: IdlModel;
  /** IDL type name -> component schema name. */
  schemas: Map<string, string>;
  /** IDL interface name -> its name in the document (OpenAPI tag and first path segment; OpenRPC tag and method prefix). */
  interfaces: Map<string, string>;
  /** IDL error name -> name in `x-idl-errors`. */
  errors: Map<string, string>;
}

/** What the writer names: a declaration with the place it is declared. */
export interface Declared {
  name: Name;
  span: SourceSpan;
}

/** One key per declaration, the same in every model that imports its file. */
export function declarationKey(declaration: Declared): string {
  return `${sourceFileKey(declaration.span.file)}#${declaration.name.text}`;
}

/** A nullable copy a 3.0 document needs: its name and the declaration it copies. */
interface NullableCopy {
  name: string;
  declaration: StructDecl | EnumDecl | UnionDecl;
  names: ModelNames;
}

/** A declaration a component schema describes. */
export type SchemaDeclaration = StructDecl | EnumDecl | UnionDecl;

/** The declaration of the struct, enum or union `typeName` names in `model` (unions are not in `types`). */
export function typeDeclaration(model: IdlModel, typeName: string): SchemaDeclaration | undefined {
  return model.types.get(typeName) ?? model.unionsByName?.get(typeName);
}

/** Where the document carries what a renamed declaration names, for the warning that tells of the rename. */
export interface NamePointers {
  /** The pointer of what carries the document's name `name` of interface `iface`. */
  interface(name: string, iface: InterfaceDecl): string;
  /** The pointer of the list of declared errors. */
  errors: string;
}

/** The schema mapping of one document: names, component schemas and type schemas. */
export class SchemaMapping {
  /** How each model's declarations are named in the document. */
  readonly names: ModelNames[];
  /** 3.0: component name -> its nullable copy, for every component referenced nullable. */
  private readonly nullableCopies = new Map<string, NullableCopy>();
  /** Every component name given so far (the IDL's, the reserved ones, the nullable copies' and variants'). */
  private readonly takenSchemaNames: Set<string>;
  /** 3.0: the types (declaration keys) only ever referenced nullable, whose component is nullable itself. */
  private readonly nullableOnly: ReadonlySet<string>;
  /** Each union's variant components by union declaration key: tag -> component name. */
  private readonly variantNames = new Map<string, Map<string, string>>();

  constructor(
    private readonly models: IdlModel[],
    readonly dialect: SchemaDialect,
    private readonly sink: WarningSink,
    private readonly pointers: NamePointers,
  ) {
    this.names = this.assignNames();
    this.takenSchemaNames = new Set(this.names.flatMap((n) => [...n.schemas.values()]));
    this.nullableOnly = dialect === '3.0' ? this.typesOnlyReferencedNullable() : new Set();
  }

  /**
   * `format: int64` / `double` in OpenAPI, where they are the registry's formats; nothing in JSON
   * Schema draft-07, which has no such formats and whose validators (ajv in the OpenRPC tools) refuse
   * a schema with a format they do not know.
   */
  private openApiFormat(format: 'int64' | 'double'): { format?: string } {
    return this.dialect === 'draft-07' ? {} : { format };
  }

  /** Whether the siblings of a `$ref` count: only in OpenAPI 3.1 (JSON Schema 2020-12). */
  private get refTakesSiblings(): boolean {
    return this.dialect === '3.1';
  }

  /**
   * A component name of the document's own (`RpcError`), `wanted` or, when an IDL type has it,
   * `wanted_2`, `_3`, ...; call it before any type schema, so that no generated name takes it.
   */
  reserveSchemaName(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.takenSchemaNames.has(name); i++) name = `${wanted}_${i}`;
    this.takenSchemaNames.add(name);
    return name;
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

  /**
   * The declarations `select` picks from every model, with the model's names; a declaration two
   * models import from the same file comes once, with the first model's.
   */
  once<T extends Declared>(select: (names: ModelNames) => readonly T[]): { names: ModelNames; declaration: T }[] {
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
        model.interfaces.map((i) => [i.name.text, name(model, i, interfaceClashes, 'interface', (p) => this.pointers.interface(p, i))]),
      ),
      errors: new Map(model.errors.map((e) => [e.name.text, name(model, e, errorClashes, 'error', () => this.pointers.errors)])),
    }));
  }

  /**
   * The component schemas: enums, structs and unions interleaved as in the source (the root file's
   * first, then each imported file's), then `extra` (the document's own), each nullable copy right
   * after the schema it copies. Write the schemas that reference types first: they ask for the copies.
   */
  componentSchemas(extra: Record<string, Schema> = {}): Record<string, Schema> {
    const schemas: Record<string, Schema> = {};
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
    Object.assign(schemas, extra);
    return this.withNullableCopies(schemas);
  }

  /** `schema` with `default`; where `$ref` takes no siblings (3.0, draft-07) it is wrapped in `allOf`. */
  withDefault(schema: Schema, fallback: { value: unknown } | undefined): Schema {
    if (!fallback) return schema;
    if ('$ref' in schema && !this.refTakesSiblings) return { allOf: [schema], default: fallback.value };
    return { ...schema, default: fallback.value };
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
      const tagSchema = this.dialect !== '3.0' ? { type: 'string', const: tag } : { type: 'string', enum: [tag] };
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
      properties[field.name.text] = this.describe(this.withDefault(schema, defaultOf(field.attributes)), field.comment, true);
    }
    if (fields.length > 0) schema.properties = properties;
    const required = fields.filter((f) => !f.optional).map((f) => f.name.text);
    if (required.length > 0) schema.required = required;
    return schema;
  }

  /**
   * Adds the description of a doc comment (without its tag lines) and, with `withTags`, what its
   * tags say (`deprecated`, examples); where a `$ref` takes no siblings (3.0, draft-07) it is wrapped in `allOf`.
   */
  describe(schema: Schema, comment: string | undefined, withTags = false): Schema {
    const description = this.descriptionOf(comment);
    const annotations: Schema = {};
    if (description !== undefined) annotations.description = description;
    if (withTags) Object.assign(annotations, this.tagged({}, comment));
    if (Object.keys(annotations).length === 0) return schema;
    if ('$ref' in schema && !this.refTakesSiblings) return { allOf: [schema], ...annotations };
    return { ...schema, ...annotations };
  }

  /** The description of a doc comment: the comment without its tag lines. */
  descriptionOf(comment: string | undefined): string | undefined {
    return comment?.includes('@') ? docDescription(comment) : comment;
  }

  /**
   * `schema` with what the doc tags of `comment` say in schema keywords: `deprecated: true`, and the
   * `@example` values as `examples` (3.1) or the first as `example` (3.0).
   */
  tagged(schema: Schema, comment: string | undefined): Schema {
    if (!comment?.includes('@')) return schema;
    const tags = docTags(comment);
    // The exact comment, so that converting the document back keeps the tags as written (a
    // deprecation's reason has no OpenAPI keyword).
    if (docCommentParts(comment).tags.length > 0) schema[EXTENSION.comment] = comment;
    if (tags.deprecated !== undefined) schema.deprecated = true;
    if (tags.examples !== undefined) {
      if (this.dialect !== '3.0') schema.examples = tags.examples;
      else schema.example = tags.examples[0];
    }
    return schema;
  }

  ref(schemaName: string): string {
    return `#/components/schemas/${schemaName}`;
  }

  /** The schema of an IDL type; `nullable` when the value may be null (`[optional]`). */
  typeSchema(type: TypeRef, names: ModelNames, nullable = false, attributes?: readonly Attribute[]): Schema {
    const schema = withConstraints(this.plainTypeSchema(type, names), constraintsOf(attributes), this.dialect === '3.0' ? '3.0' : '3.1');
    if (!nullable) return schema;
    // json's schema `{}` stays as it is: null is one of its values.
    if (type.kind === 'builtIn' && type.name === 'json') return schema;
    if (this.dialect !== '3.0') {
      // The OpenRPC tools' schema transpiler warns that it will stop reading `type` lists: draft-07
      // says "or null" with `oneOf`, as for a reference.
      if ('$ref' in schema || this.dialect === 'draft-07') return { oneOf: [schema, { type: 'null' }] };
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
            return { type: 'integer', ...this.openApiFormat('int64'), minimum: -MAX_SAFE_INT, maximum: MAX_SAFE_INT };
          case 'float':
            return { type: 'number', ...this.openApiFormat('double') };
          case 'bool':
            return { type: 'boolean' };
          case 'timestamp':
            return { type: 'string', format: 'date-time' };
          case 'date':
            return { type: 'string', format: 'date' };
          case 'bytes':
            return this.dialect !== '3.0' ? { type: 'string', contentEncoding: 'base64' } : { type: 'string', format: 'byte' };
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
}
