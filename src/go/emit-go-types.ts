/**
 * `types.go` of a namespace's package: enums as typed string constants with `Valid`, structs with
 * `json` tags keeping the wire names (an `extends` parent's fields first, flattened), unions as
 * tagged structs with one pointer per variant, declared errors as types usable with `errors.As`,
 * and the registration of every type for the runtime's check of answers.
 */
import type { EnumDecl, Field, StructDecl, UnionDecl } from '../idl/ast.js';
import { discriminatorOf } from '../idl/ast.js';
import { allFields } from '../idl/model.js';
import { alignRows, goDoc, goString, type AlignedRow } from './go-source.js';
import { goOptionalType, goType, typeDescriptor, type GoTypeContext } from './go-types.js';
import { claim, pascalCase } from './names.js';

/** The declarations of one package's types, errors and registrations (without package clause and imports). */
export function emitTypes(context: GoTypeContext): string[] {
  const { model, pkg } = context;
  const mine = (decl: { namespace?: string }) => decl.namespace === pkg.namespace;
  const blocks: string[] = [];
  for (const decl of model.enums.filter(mine)) blocks.push(enumBlock(decl, context));
  for (const decl of model.structs.filter(mine)) blocks.push(structBlock(decl, context));
  for (const decl of (model.unions ?? []).filter(mine)) blocks.push(unionBlock(decl, context));
  for (const error of model.errors.filter(mine)) {
    const names = context.program.errorNames.get(error.name.text)!;
    context.imports.add(`${context.module}/idlrpc`);
    blocks.push(
      [
        ...goDoc(error.comment, '', [`${names.type} is the declared error ${error.name.text} (code ${error.code}): ${error.message}`]),
        `type ${names.type} struct {`,
        '\tidlrpc.RPCError',
        '}',
        '',
        `// ${names.code} is the code of ${names.type}.`,
        `const ${names.code} = ${error.code}`,
        '',
        `// Unwrap gives errors.As the RPCError inside.`,
        `func (e *${names.type}) Unwrap() error {`,
        '\treturn &e.RPCError',
        '}',
      ].join('\n'),
    );
  }
  const registrations = registrationLines(context);
  if (registrations.length > 0) {
    context.imports.add(`${context.module}/idlrpc`);
    blocks.push(['// The types, for the check of answers against the IDL.', 'func init() {', ...registrations, '}'].join('\n'));
  }
  return blocks;
}

function enumBlock(decl: EnumDecl, context: GoTypeContext): string {
  const name = context.program.typeName.get(decl.name.text)!;
  const constants = context.program.enumConstants.get(decl.name.text)!;
  const rows: AlignedRow[] = decl.values.map((value) => ({
    doc: goDoc(value.comment, '\t'),
    cells: [constants.get(value.name.text)!, name, `= ${goString(value.name.text)}`],
  }));
  const all = decl.values.map((value) => constants.get(value.name.text)!).join(', ');
  return [
    ...goDoc(decl.comment, '', decl.comment ? [] : [`${name} is the enum ${decl.name.text}.`]),
    `type ${name} string`,
    '',
    `// The values of ${name}.`,
    'const (',
    ...alignRows(rows, '\t'),
    ')',
    '',
    `// Valid reports whether v is one of the values of ${name}.`,
    `func (v ${name}) Valid() bool {`,
    '\tswitch v {',
    `\tcase ${all}:`,
    '\t\treturn true',
    '\t}',
    '\treturn false',
    '}',
  ].join('\n');
}

function structBlock(decl: StructDecl, context: GoTypeContext): string {
  const name = context.program.typeName.get(decl.name.text)!;
  const fields = allFields(context.model, decl);
  const taken = new Set<string>();
  const rows: AlignedRow[] = fields.map((field) => ({
    doc: goDoc(field.comment, '\t', attributeNotes(field)),
    cells: [
      claim(pascalCase(field.name.text), taken),
      field.optional ? goOptionalType(field.type, context) : goType(field.type, context),
      `\`json:${goString(field.optional ? `${field.name.text},omitempty` : field.name.text)}\``,
    ],
  }));
  const parent = decl.extends ? [`It has the fields of ${decl.extends.text} first (extends).`] : [];
  return [
    ...goDoc(decl.comment, '', decl.comment ? parent : [`${name} is the struct ${decl.name.text}.`, ...parent]),
    rows.length === 0 ? `type ${name} struct{}` : [`type ${name} struct {`, ...alignRows(rows, '\t'), '}'].join('\n'),
  ].join('\n');
}

/**
 * The attributes of a field other than `optional`, as a doc line: constraints are documented
 * here and checked by the server, defaults are filled in by the server.
 */
export function attributeNotes(item: { attributes?: Field['attributes'] }): string[] {
  const notes = (item.attributes ?? []).filter((attribute) => attribute.name.text !== 'optional' && attribute.value !== undefined);
  if (notes.length === 0) return [];
  return [
    `IDL attributes (checked by the server): ${notes.map((attribute) => `${attribute.name.text}=${attribute.value!.text}`).join(', ')}.`,
  ];
}

function unionBlock(decl: UnionDecl, context: GoTypeContext): string {
  const name = context.program.typeName.get(decl.name.text)!;
  const discriminator = discriminatorOf(decl);
  const taken = new Set(['MarshalJSON', 'UnmarshalJSON']);
  const variants = decl.variants.map((variant) => ({
    tag: variant.tag.text,
    field: claim(pascalCase(variant.tag.text), taken),
    type: goType({ kind: 'named', name: variant.type.text, span: variant.span }, context),
    doc: goDoc(variant.comment, '\t'),
  }));
  context.imports.add('encoding/json');
  context.imports.add(`${context.module}/idlrpc`);
  const rows = variants.map((variant): AlignedRow => ({ doc: variant.doc, cells: [variant.field, `*${variant.type}`] }));
  return [
    ...goDoc(decl.comment, '', [
      `${name} is the union ${decl.name.text}: set exactly one field. On the wire it is the variant's`,
      `fields with ${goString(discriminator)} holding its tag.`,
    ]),
    `type ${name} struct {`,
    ...alignRows(rows, '\t'),
    '}',
    '',
    `// MarshalJSON writes the variant that is set, with its tag.`,
    `func (u ${name}) MarshalJSON() ([]byte, error) {`,
    '\tswitch {',
    ...variants.flatMap((variant) => [
      `\tcase u.${variant.field} != nil:`,
      `\t\treturn idlrpc.MarshalUnion(${goString(discriminator)}, ${goString(variant.tag)}, u.${variant.field})`,
    ]),
    '\t}',
    `\treturn nil, idlrpc.TransportError(${goString(`union ${decl.name.text} has no variant set`)})`,
    '}',
    '',
    `// UnmarshalJSON reads the variant its tag names.`,
    `func (u *${name}) UnmarshalJSON(data []byte) error {`,
    `\ttag, err := idlrpc.UnionTag(data, ${goString(discriminator)})`,
    '\tif err != nil {',
    '\t\treturn err',
    '\t}',
    `\t*u = ${name}{}`,
    '\tswitch tag {',
    ...variants.flatMap((variant) => [
      `\tcase ${goString(variant.tag)}:`,
      `\t\tu.${variant.field} = new(${variant.type})`,
      `\t\treturn json.Unmarshal(data, u.${variant.field})`,
    ]),
    '\t}',
    `\treturn idlrpc.TransportError(${goString(`unknown tag of union ${decl.name.text}: `)} + tag)`,
    '}',
  ].join('\n');
}

function registrationLines(context: GoTypeContext): string[] {
  const { model, pkg } = context;
  const mine = (decl: { namespace?: string }) => decl.namespace === pkg.namespace;
  const call = (fn: string, args: string[]) => `\tidlrpc.${fn}(${args.map(goString).join(', ')})`;
  return [
    ...model.enums.filter(mine).map((decl) => call('RegisterEnum', [decl.name.text, ...decl.values.map((value) => value.name.text)])),
    ...model.structs
      .filter(mine)
      .map((decl) =>
        call('RegisterStruct', [
          decl.name.text,
          ...allFields(model, decl).map((field) => `${field.name.text} ${typeDescriptor(field.type, field.optional)}`),
        ]),
      ),
    ...(model.unions ?? [])
      .filter(mine)
      .map((decl) =>
        call('RegisterUnion', [
          decl.name.text,
          discriminatorOf(decl),
          ...decl.variants.map((variant) => `${variant.tag.text} @${variant.type.text}`),
        ]),
      ),
  ];
}
