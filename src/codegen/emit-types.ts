/**
 * The declarations of `types.ts`: enums, structs, declared errors and TypeBox schemas (the validators
 * compiled from the schemas are in emit-validators.ts).
 */
import { discriminatorOf, type Name } from '../idl/ast.js';
import type { IdlModel } from '../idl/model.js';
import { typeOnly, type Declaration, type Use } from './declarations.js';
import { METHOD_SCHEMAS, SCHEMA_REFERENCES, type TypeScriptNames, uniqueName } from './names.js';
import { docComment, deprecatedTsDoc, indent, itemDocComment, propertyKey, stringLiteral, withSummary } from './source-text.js';
import { typeUses } from './emit-client.js';
import { shortName } from './namespace-view.js';
import { anchored } from './source-anchor.js';
import { constrainedSource, constrainedUses, schemaSource, typeScriptType } from './type-mapping.js';

const typebox = (name: string, typeOnly = false): Use => ({ from: 'typebox', name, typeOnly });

/** Enums: a string-literal union type plus a frozen object of the same name holding the values. */
export function enumDeclarations(model: IdlModel, names: TypeScriptNames): Declaration[] {
  if (model.enums.length === 0) return [];
  // `Object.freeze` behind a function: the global `Object` in a top-level expression makes the
  // checker walk the module's control flow back to its start (past every `const` before it), so
  // one call per enum cost the square of the IDL's size; a function declaration is not traced.
  const freeze = uniqueName('frozenValues', new Set(names.taken));
  const helper: Declaration = {
    kind: 'code',
    part: 'types',
    name: freeze,
    doc: '',
    exported: false,
    uses: [],
    code: [
      `function ${freeze}`,
      typeOnly('<T extends object>'),
      '(values',
      typeOnly(': T'),
      ')',
      typeOnly(': Readonly<T>'),
      ' {\n  return Object.freeze(values);\n}',
    ],
  };
  return [helper, ...enumValueDeclarations(model, names, freeze)];
}

function enumValueDeclarations(model: IdlModel, names: TypeScriptNames, freeze: string): Declaration[] {
  return model.enums.flatMap((decl): Declaration[] => {
    const name = names.declared(decl.name.text);
    const values = decl.values.map((v) => v.name.text);
    const union = values.length === 0 ? 'never' : values.map(stringLiteral).join(' | ');
    const entries = decl.values.map(
      (v) => `${itemDocComment(v.comment, '  ')}  ${anchored(propertyKey(v.name.text), v.name.span)}: ${stringLiteral(v.name.text)},\n`,
    );
    const declaredEntries = decl.values.map(
      (v) => `${deprecatedDoc(v.comment)}  readonly ${anchored(propertyKey(v.name.text), v.name.span)}: ${stringLiteral(v.name.text)};\n`,
    );
    return [
      {
        kind: 'type',
        part: 'types',
        name,
        doc: itemDocComment(decl.comment),
        exported: true,
        uses: [],
        text: `type ${anchored(name, decl.name.span)} = ${union};\n`,
      },
      {
        kind: 'const',
        part: 'types',
        name,
        doc: docComment(`The values of {@link ${name}}, e.g. \`${name}.${values[0] ?? 'value'}\`.`, '', deprecatedTsDoc(decl.comment)),
        exported: true,
        uses: [],
        source: decl.name.span,
        declaredType: values.length === 0 ? '{}' : `{\n${declaredEntries.join('')}}`,
        value: [`/*#__PURE__*/ ${freeze}({\n`, entries.join(''), '}', typeOnly(' as const'), ')'],
      },
    ];
  });
}

/** Structs: interfaces with `extends`; an `[optional]` field is `field?: T | null`. */
export function structDeclarations(model: IdlModel, names: TypeScriptNames): Declaration[] {
  return model.structs.map((decl): Declaration => {
    const uses = decl.fields.flatMap((f) => typeUses(f.type, names));
    if (decl.extends) uses.push(names.use(decl.extends.text, false));
    const heritage = decl.extends ? ` extends ${names.declared(decl.extends.text)}` : '';
    const fields = decl.fields.map(
      (f) =>
        `${itemDocComment(f.comment, '  ')}  ${anchored(propertyKey(f.name.text), f.name.span)}${f.optional ? '?' : ''}: ${typeScriptType(f.type, names)}${f.optional ? ' | null' : ''};\n`,
    );
    const name = names.declared(decl.name.text);
    const body = fields.length === 0 ? '{}' : `{\n${fields.join('')}}`;
    return {
      kind: 'type',
      part: 'types',
      name,
      doc: itemDocComment(decl.comment),
      exported: true,
      uses,
      text: `interface ${anchored(name, decl.name.span)}${heritage} ${body}`,
    };
  });
}

/**
 * Unions: a union of `({ <discriminator>: '<tag>' } & Variant)` in source order, so a `switch` on the
 * discriminator narrows to the variant's struct (docs/idl.md, "Unions").
 */
export function unionDeclarations(model: IdlModel, names: TypeScriptNames): Declaration[] {
  return (model.unions ?? []).map((decl): Declaration => {
    const discriminator = propertyKey(discriminatorOf(decl));
    const variants = decl.variants.map(
      (v) =>
        `${itemDocComment(v.comment, '  ')}  | ({ ${discriminator}: ${stringLiteral(v.tag.text)} } & ${names.declared(v.type.text)})\n`,
    );
    const name = names.declared(decl.name.text);
    return {
      kind: 'type',
      part: 'types',
      name,
      doc: itemDocComment(decl.comment),
      exported: true,
      uses: decl.variants.map((v) => names.use(v.type.text, false)),
      text: `type ${anchored(name, decl.name.span)} =${variants.length === 0 ? ' never;\n' : `\n${variants.join('').replace(/\n$/, ';\n')}`}`,
    };
  });
}

/** Declared errors: a code constant and a `DeclaredError` subclass each. */
export function errorDeclarations(model: IdlModel, names: TypeScriptNames): Declaration[] {
  return model.errors.flatMap((error): Declaration[] => {
    const className = names.errorClass(error.name.text);
    const codeName = names.errorCode(error.name.text);
    const summary = `Declared error ${error.code} \`${error.name.text}\`: ${error.message}`;
    return [
      {
        kind: 'const',
        part: 'types',
        name: codeName,
        doc: docComment(`The code of {@link ${className}}.`),
        exported: true,
        uses: [],
        source: error.codeSpan,
        declaredType: String(error.code),
        value: [String(error.code)],
      },
      {
        kind: 'class',
        part: 'types',
        name: className,
        doc: withSummary(error.comment, summary),
        exported: true,
        uses: [{ from: 'runtimeClient', name: 'DeclaredError', typeOnly: false }],
        source: error.name.span,
        extends: 'DeclaredError',
        members: [
          { kind: 'static', doc: '', name: 'code', value: codeName, declaredType: String(error.code), source: error.codeSpan },
          {
            kind: 'static',
            doc: '',
            name: 'errorName',
            source: error.name.span,
            value: stringLiteral(shortName(error.name.text)),
            declaredType: stringLiteral(shortName(error.name.text)),
          },
          {
            kind: 'static',
            doc: '',
            name: 'defaultMessage',
            value: stringLiteral(error.message),
            declaredType: stringLiteral(error.message),
          },
        ],
      },
    ];
  });
}

/**
 * TypeBox schemas: one per struct and enum, the list of them all, and the parameter and result
 * schemas of every method. A struct that extends another refers to its parent's schema
 * (`Type.Intersect([Type.Ref(parent), Type.Object(own fields)])`): copying the inherited fields into
 * every struct made the output grow with the square of an `extends` chain.
 */
export function schemaDeclarations(
  model: IdlModel,
  names: TypeScriptNames,
  { foreign, interfaces }: { foreign: SchemaTypes; interfaces: IdlModel['interfaces'] },
): Declaration[] {
  const unions = [...(model.unions ?? []), ...(foreign.unions ?? [])];
  const built = new BuiltHelper(names);
  const declarations = [
    ...typeSchemas(model, names, true, built),
    ...typeSchemas(foreign, names, false, built),
    // Unions last, as the runtime lists them (runtime/schema.ts `idlSchemas`).
    ...schemaTables([...model.structs, ...model.enums, ...foreign.structs, ...foreign.enums, ...unions], interfaces, names, built),
  ];
  return built.used ? [built.declaration(), ...declarations] : declarations;
}

/**
 * `built(() => schema)`: a schema built by an arrow function that a helper calls, marked pure, so
 * bundlers drop the whole expression when its result is unused (a pure mark on a call alone keeps
 * argument calls such as a nested `Type.Array(...)`) and a bundle that imports only a client
 * carries no schemas.
 *
 * Not an arrow invoked in place: the checker reads an immediately invoked function as part of the
 * module's control flow, so every `Type` in it was traced back through every `const` of the module
 * before it, and the schemas cost the square of the IDL's size to type-check (2,000 structs: 10.6 s
 * of 15; linear since). An arrow handed to a function is analysed on its own.
 */
class BuiltHelper {
  used = false;
  private readonly name: string;

  constructor(names: TypeScriptNames) {
    this.name = uniqueName('built', new Set(names.taken));
  }

  /** `source` wrapped: `/*#__PURE__*\/ built(() => source)`. */
  wrap(source: string): string {
    this.used = true;
    // An object literal after `=>` needs parentheses, or it would be read as a block.
    const body = source.startsWith('{') ? `(${source})` : source;
    return `/*#__PURE__*/ ${this.name}(() =>\n${indent(body, '  ')})`;
  }

  declaration(): Declaration {
    return {
      kind: 'code',
      part: 'types',
      name: this.name,
      doc: docComment(
        'Runs `build`. Each schema is built through it, marked pure: a bundle that does not use a schema drops all of it, and the type checker reads each on its own.',
      ),
      exported: false,
      uses: [],
      code: [`function ${this.name}`, typeOnly('<T>'), '(build', typeOnly(': () => T'), ')', typeOnly(': T'), ' {\n  return build();\n}'],
    };
  }
}

/**
 * The schemas of some structs and enums: exported for this module's own, internal copies for
 * another namespace's (so every `$id` is the name the whole program uses, whatever module is built).
 */
function typeSchemas(model: SchemaTypes, names: TypeScriptNames, exported: boolean, built: BuiltHelper): Declaration[] {
  const structs = model.structs.map((decl): Declaration => {
    const properties = decl.fields.map((f) => {
      const own = constrainedSource(schemaSource(f.type), f.attributes);
      const schema = f.optional ? `Type.Optional(Type.Union([${own}, Type.Null()]))` : own;
      return `${propertyKey(f.name.text)}: ${schema},\n`;
    });
    const id = `{ $id: ${stringLiteral(decl.name.text)} }`;
    if (!decl.extends) {
      const body = properties.length === 0 ? '{}' : `{\n${indent(properties.join(''), '    ')}  }`;
      return namedSchema(decl, names, `Type.Object(\n  ${body},\n  ${id},\n)`, exported, built);
    }
    const own = properties.length === 0 ? 'Type.Object({})' : `Type.Object({\n${indent(properties.join(''), '      ')}    })`;
    return namedSchema(
      decl,
      names,
      `Type.Intersect(\n  [\n    Type.Ref(${stringLiteral(decl.extends.text)}),\n    ${own},\n  ],\n  ${id},\n)`,
      exported,
      built,
    );
  });
  const enums = model.enums.map((decl) => {
    const literals = decl.values.map((v) => `    Type.Literal(${stringLiteral(v.name.text)}),\n`).join('');
    return namedSchema(decl, names, `Type.Union(\n  [\n${literals}  ],\n  { $id: ${stringLiteral(decl.name.text)} },\n)`, exported, built);
  });
  const unions = (model.unions ?? []).map((decl) => {
    const discriminator = discriminatorOf(decl);
    const members = decl.variants.map(
      (v) =>
        `    Type.Intersect([Type.Object({ ${propertyKey(discriminator)}: Type.Literal(${stringLiteral(v.tag.text)}) }), Type.Ref(${stringLiteral(v.type.text)})]),\n`,
    );
    const options = `{ $id: ${stringLiteral(decl.name.text)}, discriminator: ${stringLiteral(discriminator)} }`;
    return namedSchema(decl, names, `Type.Union(\n  [\n${members.join('')}  ],\n  ${options},\n)`, exported, built);
  });
  return [...structs, ...enums, ...unions];
}

/** The declarations whose schemas a module holds. */
type SchemaTypes = Pick<IdlModel, 'structs' | 'enums' | 'unions'>;

/** `schemaReferences` (every named schema) and `methodSchemas` (those of the served methods). */
function schemaTables(
  types: readonly { name: { text: string } }[],
  interfaces: IdlModel['interfaces'],
  names: TypeScriptNames,
  built: BuiltHelper,
): Declaration[] {
  const named = types.map((decl) => names.schema(decl.name.text));
  // Built in a function: a reference to a top-level `const` in a top-level expression makes the
  // checker walk the module's control flow back to the declaration, past every `const` between,
  // which made one such list cost the square of the IDL's size; in a function body it stops at
  // the function's start.
  const list = uniqueName('everyNamedSchema', new Set(names.taken));
  const references: Declaration = {
    kind: 'const',
    part: 'types',
    name: SCHEMA_REFERENCES,
    doc: docComment('Every named schema; `Type.Ref(name)` in any schema resolves to the one whose `$id` is `name`.'),
    exported: true,
    uses: [typebox('TSchema', true)],
    annotation: 'TSchema[]',
    declaredType: 'TSchema[]',
    value: named.length === 0 ? ['[]'] : [`/*#__PURE__*/ ${list}()`],
  };
  // Each element widened to `TSchema`: an array literal of differently typed schemas makes the
  // checker reduce the union of their types pair by pair, which fails with TS2590 from about a
  // thousand structs; elements of one type make a union of one.
  const elements = named.flatMap((name, i) => [i === 0 ? '' : ', ', name, typeOnly(' as TSchema')]);
  const listFunction: Declaration = {
    kind: 'code',
    part: 'types',
    name: list,
    doc: '',
    exported: false,
    uses: [typebox('TSchema', true)],
    code: [`function ${list}()`, typeOnly(': TSchema[]'), ' {\n  return [', ...elements, '];\n}'],
  };
  const entries = interfaces.flatMap((iface) =>
    iface.methods.map((method) => {
      const params = method.parameters.map((p) => constrainedSource(schemaSource(p.type), p.attributes)).join(', ');
      const returned = constrainedSource(schemaSource(method.returnType), method.returnAttributes);
      const result = method.returnOptional ? `Type.Union([${returned}, Type.Null()])` : returned;
      return `  ${stringLiteral(`${iface.name.text}.${method.name.text}`)}: { params: [${params}], result: ${result} },\n`;
    }),
  );
  const methods: Declaration = {
    kind: 'const',
    part: 'types',
    name: METHOD_SCHEMAS,
    doc: docComment('The schemas of every method, keyed `"<Interface>.<method>"`: one per parameter, in order, and the result.'),
    exported: true,
    uses: [typebox('Type'), typebox('TSchema', true), ...constrainedUses(entries.join(''))],
    annotation: METHOD_SCHEMAS_TYPE,
    declaredType: METHOD_SCHEMAS_TYPE,
    value: [entries.length === 0 ? '{}' : built.wrap(`{\n${entries.join('')}}`)],
  };
  return [...(named.length === 0 ? [] : [listFunction]), references, methods];
}

const METHOD_SCHEMAS_TYPE = 'Record<string, { params: TSchema[]; result: TSchema }>';

function namedSchema(decl: { name: Name }, names: TypeScriptNames, source: string, exported: boolean, built: BuiltHelper): Declaration {
  const typeName = decl.name.text;
  return {
    kind: 'const',
    part: 'types',
    name: names.schema(typeName),
    doc: docComment(
      exported
        ? `The TypeBox schema of {@link ${names.declared(typeName)}}.`
        : `The TypeBox schema of \`${typeName}\` (this module's copy).`,
    ),
    exported,
    uses: [typebox('Type'), typebox('TSchema', true), ...constrainedUses(source)],
    source: decl.name.span,
    declaredType: 'TSchema',
    value: [built.wrap(source)],
  };
}

/** The `@deprecated` TSDoc of a declared enum value (its description is on the value itself), or nothing. */
function deprecatedDoc(comment: string | undefined): string {
  return docComment(undefined, '  ', deprecatedTsDoc(comment));
}
