/**
 * One Python module per namespace: enums, dataclasses, unions, declared errors, clients, and the
 * readers (results checked against the IDL) and writers (params as the wire wants them) they use.
 * Every line fits PEP 8's 79 columns (python-layout.ts).
 */
import {
  discriminatorOf,
  type EnumDecl,
  type Field,
  type InterfaceDecl,
  type StructDecl,
  type TypeRef,
  type UnionDecl,
} from '../idl/ast.js';
import { constraintsOf } from '../idl/attributes.js';
import { docDescription, docTags } from '../idl/doc-tags.js';
import { allFields, type IdlModel } from '../idl/model.js';
import { shortName } from '../codegen/namespace-view.js';
import { snakeCase } from '../case-conversion.js';
import { claimPythonName, enumMemberNames, snakeNames } from './python-names.js';
import { type ProgramNames, RUNTIME_EXPORTS } from './program-names.js';
import { commentLine, docstring, MAX_LINE, pyString, wrapLines } from './python-text.js';
import { brackets, call, conditional, flat, layout, paren, type PyCode, subscript, text } from './python-layout.js';

/** What a module needs to know: the program, its names, and which namespace it is (undefined: the root). */
export interface ModuleContext {
  model: IdlModel;
  names: ProgramNames;
  namespace: string | undefined;
  /** The interfaces' contract fingerprints, by IDL name. */
  fingerprints: ReadonlyMap<string, string>;
}

/** The body of the module (everything after the header). */
export function emitModule(context: ModuleContext): string {
  const emitter = new ModuleEmitter(context);
  return emitter.emit();
}

/** The parameters of every generated reader. */
const READER_PARAMETERS = ['value: object', 'path: str'];

/** `def name(parameters) -> result:` at `indent`, wrapped when long. */
function def(name: string, parameters: readonly PyCode[], result: string, indent: string): string[] {
  return layout([`def ${name}`, brackets('(', parameters, ')'), ` -> ${result}`], indent, ':');
}

/** `class name(base):` (or `class name:`). */
function classLine(name: string, base: string | undefined): string[] {
  return layout(base === undefined ? `class ${name}` : [`class ${name}`, brackets('(', [base], ')')], '', ':');
}

class ModuleEmitter {
  readonly #context: ModuleContext;
  readonly #imports = new Set<string>();
  readonly #namespaceImports = new Map<string, string>();
  readonly #typing = new Set<string>();
  readonly #exports: string[] = [];
  /** Whether the module defines or calls readers and writers (underscored: the package's own). */
  #hasHelpers = false;

  constructor(context: ModuleContext) {
    this.#context = context;
  }

  emit(): string {
    const { model, namespace } = this.#context;
    const mine = <T extends { namespace?: string }>(items: readonly T[]) => items.filter((item) => item.namespace === namespace);
    const parts: string[] = [];
    for (const decl of mine(model.enums)) parts.push(this.#enum(decl));
    for (const decl of parentsFirst(mine(model.structs), model)) parts.push(this.#struct(decl));
    for (const decl of mine(model.unions ?? [])) parts.push(this.#union(decl));
    for (const error of mine(model.errors)) parts.push(this.#error(error));
    for (const decl of mine(model.interfaces)) parts.push(this.#client(decl));
    if (namespace === undefined) this.#exports.push(...RUNTIME_EXPORTS);
    const body = parts.join('\n\n\n') + (parts.length > 0 ? '\n' : '');
    return this.#preamble(body.includes('_rt.'), parts.length > 0) + body;
  }

  /** The docstring, imports and `__all__`; `_rt` is imported only when the body uses it (pyright refuses unused imports). */
  #preamble(usesRuntime: boolean, hasBody: boolean): string {
    const { model, namespace } = this.#context;
    const comment = namespace === undefined ? model.namespaceComment : undefined;
    const lines: string[] = [];
    const doc = docstring(docDescription(comment)?.split('\n') ?? [], '');
    if (doc) lines.push(doc.trimEnd(), '');
    if (this.#hasHelpers) {
      lines.push(
        '# The readers and writers are private to the package: some serve only',
        "# other modules, and modules call one another's.",
        '# pyright: reportUnusedFunction=false, reportPrivateUsage=false',
        '',
      );
    }
    lines.push('from __future__ import annotations', '');
    const stdlib = [...this.#imports].sort();
    for (const line of stdlib) lines.push(line);
    const importList = (names: readonly string[]) => brackets('(', names, ')', { optional: true });
    if (this.#typing.size > 0) lines.push(...layout(['from typing import ', importList([...this.#typing].sort())], ''));
    if (stdlib.length > 0 || this.#typing.size > 0) lines.push('');
    const runtime = namespace === undefined ? RUNTIME_EXPORTS : [];
    if (usesRuntime) lines.push('from . import rpc_runtime as _rt');
    if (runtime.length > 0) {
      lines.push(...layout(['from .rpc_runtime import ', importList(runtime.map((name) => `${name} as ${name}`))], ''));
    }
    for (const [module, alias] of [...this.#namespaceImports].sort()) lines.push(`from . import ${module} as ${alias}`);
    lines.push('', ...layout(['__all__: list[str] = ', brackets('[', this.#exports.map(pyString), ']')], ''));
    // Two blank lines before the first definition; none after the last line of a module without one.
    if (hasBody) lines.push('', '');
    return `${lines.join('\n')}\n`;
  }

  /** The name of a declaration as this module writes it: its class, or `_ns_<module>.<class>`. */
  #ref(idlName: string, local: (names: ProgramNames) => ReadonlyMap<string, string>): string {
    const { names, namespace } = this.#context;
    const declared = local(names).get(idlName);
    if (declared === undefined) throw new Error(`internal error: no Python name for '${idlName}'`);
    const home = names.namespaceOf.get(idlName);
    if (home === namespace) return declared;
    const module = names.modules.get(home)!;
    const alias = `_ns_${module}`;
    this.#namespaceImports.set(module, alias);
    return `${alias}.${declared}`;
  }

  #type(idlName: string): string {
    return this.#ref(idlName, (names) => names.classes);
  }

  /** `_read_<stem>` / `_write_<stem>` of a declaration, through its module when it is another's. */
  #helper(kind: 'read' | 'write', idlName: string): string {
    const ref = this.#ref(idlName, (names) => names.helpers);
    const dot = ref.lastIndexOf('.');
    this.#hasHelpers = true;
    return `${ref.slice(0, dot + 1)}_${kind}_${ref.slice(dot + 1)}`;
  }

  #use(kind: 'typing' | 'datetime' | 'enum' | 'dataclass', name?: string): void {
    if (kind === 'typing') this.#typing.add(name!);
    else if (kind === 'datetime') this.#imports.add('import datetime as _dt');
    else if (kind === 'enum') this.#imports.add('import enum as _enum');
    else this.#imports.add('from dataclasses import dataclass as _dataclass');
  }

  /** The annotation of a type. */
  #annotation(type: TypeRef): PyCode {
    switch (type.kind) {
      case 'builtIn':
        switch (type.name) {
          case 'string':
            return 'str';
          case 'timestamp':
            this.#use('datetime');
            return '_dt.datetime';
          case 'date':
            this.#use('datetime');
            return '_dt.date';
          case 'json':
            this.#use('typing', 'Any');
            return 'Any';
          default:
            return type.name;
        }
      case 'array':
        return ['list', subscript([this.#annotation(type.element)])];
      case 'map':
        return ['dict', subscript(['str', this.#annotation(type.value)])];
      case 'named':
        return this.#type(type.name);
    }
  }

  /** `Optional[annotation]`. */
  #optional(annotation: PyCode): PyCode {
    this.#use('typing', 'Optional');
    return ['Optional', subscript([annotation])];
  }

  /** A function `(value: object, path: str) -> T` that reads a value of the type, checked. */
  #reader(type: TypeRef): PyCode {
    switch (type.kind) {
      case 'builtIn':
        return `_rt.read_${type.name === 'string' ? 'str' : type.name}`;
      case 'array':
        return ['lambda value, path: ', call('_rt.read_list', ['value', 'path', this.#reader(type.element)])];
      case 'map':
        return ['lambda value, path: ', call('_rt.read_map', ['value', 'path', this.#reader(type.value)])];
      case 'named':
        return this.#helper('read', type.name);
    }
  }

  /** An expression writing `value` (of the type) as JSON, or `value` itself when it needs nothing. */
  #writer(type: TypeRef, value: string, depth = 0): PyCode {
    switch (type.kind) {
      case 'builtIn':
        if (type.name === 'timestamp' || type.name === 'date' || type.name === 'bytes') return call(`_rt.write_${type.name}`, [value]);
        return value;
      case 'array': {
        const item = `item${depth}`;
        const inner = this.#writer(type.element, item, depth + 1);
        return inner === item ? value : brackets('[', [inner, `for ${item} in ${value}`], ']', { commas: 'none' });
      }
      case 'map': {
        const [key, item] = [`key${depth}`, `item${depth}`];
        const inner = this.#writer(type.value, item, depth + 1);
        if (inner === item) return value;
        return brackets('{', [[`${key}: `, inner], `for ${key}, ${item} in ${value}.items()`], '}', { commas: 'none' });
      }
      case 'named': {
        const declared = this.#context.model.types.get(type.name);
        if (declared?.kind === 'enum') return `${value}.value`;
        return call(this.#helper('write', type.name), [value]);
      }
    }
  }

  #enum(decl: EnumDecl): string {
    this.#use('enum');
    const name = this.#type(decl.name.text);
    this.#exports.push(name);
    const members = enumMemberNames(decl.values.map((value) => value.name.text));
    const lines = classLine(name, '_enum.Enum');
    const doc = docstring(commentLines(decl.comment), '    ');
    if (doc) lines.push(doc.trimEnd(), '');
    decl.values.forEach((value, i) => {
      lines.push(...layout([`${members[i]} = `, text(value.name.text)], '    '));
      const memberDoc = docstring(commentLines(value.comment), '    ');
      if (memberDoc) lines.push(memberDoc.trimEnd());
    });
    if (decl.values.length === 0) lines.push('    pass');
    lines.push(
      '',
      '',
      ...def(this.#helper('read', decl.name.text), READER_PARAMETERS, name, ''),
      ...layout(['return ', call('_rt.read_enum', ['value', 'path', name])], '    '),
    );
    return lines.join('\n');
  }

  #struct(decl: StructDecl): string {
    this.#use('dataclass');
    const name = this.#type(decl.name.text);
    this.#exports.push(name);
    const parent = decl.extends ? this.#type(decl.extends.text) : undefined;
    const attributes = this.#context.names.fields.get(decl.name.text)!;
    const lines = ['@_dataclass(kw_only=True)', ...classLine(name, parent)];
    const doc = docstring(commentLines(decl.comment), '    ');
    if (doc) lines.push(doc.trimEnd(), ...(decl.fields.length > 0 ? [''] : []));
    for (const field of decl.fields) lines.push(...this.#field(field, attributes.get(field.name.text)!));
    if (decl.fields.length === 0 && !doc) lines.push('    pass');
    lines.push('', '', ...this.#structReader(name, decl), '', '', ...this.#structWriter(name, decl));
    return lines.join('\n');
  }

  #field(field: Field, attribute: string): string[] {
    const type = this.#annotation(field.type);
    const lines = field.optional
      ? layout([`${attribute}: `, this.#optional(type), ' = None'], '    ')
      : layout([`${attribute}: `, type], '    ');
    const notes = [...wireNote(field.name.text, attribute), ...constraintLines(field)];
    const comment = commentLines(field.comment);
    const doc = docstring(comment.length > 0 && notes.length > 0 ? [...comment, '', ...notes] : [...comment, ...notes], '    ');
    if (doc) lines.push(doc.trimEnd());
    return lines;
  }

  /** The statement returning a struct's class built from a JSON object `fields`. */
  #construction(className: string, struct: StructDecl, indent: string): string[] {
    const attributes = this.#context.names.fields.get(struct.name.text)!;
    const fields = allFields(this.#context.model, struct);
    const args = fields.map((field): PyCode => {
      const wire = pyString(field.name.text);
      const attribute = attributes.get(field.name.text)!;
      const json = field.type.kind === 'builtIn' && field.type.name === 'json';
      const read =
        json && !field.optional
          ? call('_rt.read_json_field', ['fields', wire, 'path'])
          : call(`_rt.read_${field.optional ? 'optional_' : ''}field`, ['fields', wire, 'path', this.#reader(field.type)]);
      return [`${attribute}=`, read];
    });
    return layout(['return ', call(className, args)], indent);
  }

  #structReader(name: string, struct: StructDecl): string[] {
    return [
      ...def(this.#helper('read', struct.name.text), READER_PARAMETERS, name, ''),
      // A struct without fields still must be an object; its fields are then never read.
      allFields(this.#context.model, struct).length === 0
        ? '    _rt.read_object(value, path)'
        : '    fields = _rt.read_object(value, path)',
      ...this.#construction(name, struct, '    '),
    ];
  }

  #structWriter(name: string, struct: StructDecl): string[] {
    this.#use('typing', 'Any');
    const attributes = this.#context.names.fields.get(struct.name.text)!;
    const fields = allFields(this.#context.model, struct);
    const required = fields.filter((field) => !field.optional);
    const optional = fields.filter((field) => field.optional);
    const entries = required.map(
      (field): PyCode => [`${pyString(field.name.text)}: `, paren(this.#writer(field.type, `value.${attributes.get(field.name.text)!}`))],
    );
    const lines = def(this.#helper('write', struct.name.text), [`value: ${name}`], 'dict[str, Any]', '');
    if (optional.length === 0) return [...lines, ...layout(['return ', brackets('{', entries, '}')], '    ')];
    lines.push(...layout(['fields: dict[str, Any] = ', brackets('{', entries, '}')], '    '));
    for (const field of optional) {
      const attribute = `value.${attributes.get(field.name.text)!}`;
      lines.push(
        ...layout(['if ', paren(`${attribute} is not None`)], '    ', ':'),
        ...layout([`fields[${pyString(field.name.text)}] = `, paren(this.#writer(field.type, attribute))], '        '),
      );
    }
    lines.push('    return fields');
    return lines;
  }

  #union(decl: UnionDecl): string {
    this.#use('dataclass');
    this.#use('typing', 'Literal');
    this.#use('typing', 'Any');
    const { names, model } = this.#context;
    const name = this.#type(decl.name.text);
    this.#exports.push(name);
    const discriminator = discriminatorOf(decl);
    const blocks: string[] = [];
    const variants = decl.variants.map((variant) => {
      const variantClass = names.variants.get(`${decl.name.text}\u0000${variant.tag.text}`)!;
      const struct = model.types.get(variant.type.text) as StructDecl;
      const taken = new Set(names.fields.get(struct.name.text)!.values());
      const attribute = claimPythonName(snakeCase(discriminator), taken);
      return { variant, variantClass, struct, attribute };
    });
    for (const { variant, variantClass, struct, attribute } of variants) {
      this.#exports.push(variantClass);
      const tag = pyString(variant.tag.text);
      const lines = ['@_dataclass(kw_only=True)', ...classLine(variantClass, this.#type(struct.name.text))];
      const doc = docstring(commentLines(variant.comment), '    ');
      if (doc) lines.push(doc.trimEnd(), '');
      lines.push(...layout([`${attribute}: Literal`, subscript([tag]), ` = ${tag}`], '    '));
      const note = docstring(wireNote(discriminator, attribute), '    ');
      if (note) lines.push(note.trimEnd());
      blocks.push(lines.join('\n'));
    }
    this.#use('typing', 'Union');
    const alias = [
      ...docstringComment(decl.comment),
      ...layout([`${name} = Union`, subscript(variants.map((v) => v.variantClass))], ''),
    ].join('\n');
    const tags = variants.map((v) => pyString(v.variant.tag.text));
    const readTag = call('_rt.read_tag', ['fields', pyString(discriminator), 'path', brackets('(', tags, ')', { commas: 'tuple' })]);
    const reader = [
      ...def(this.#helper('read', decl.name.text), READER_PARAMETERS, name, ''),
      '    fields = _rt.read_object(value, path)',
      // One variant: the tag is checked, then never compared (an unused name would fail pyright strict).
      ...layout(tags.length === 1 ? readTag : ['tag = ', readTag], '    '),
    ];
    variants.forEach(({ variantClass, struct }, i) => {
      if (i < variants.length - 1)
        reader.push(...layout(`if tag == ${tags[i]}`, '    ', ':'), ...this.#construction(variantClass, struct, '        '));
      else reader.push(...this.#construction(variantClass, struct, '    '));
    });
    const writer = def(this.#helper('write', decl.name.text), [`value: ${name}`], 'dict[str, Any]', '');
    variants.forEach(({ variantClass, struct }, i) => {
      const body: PyCode = [
        'return ',
        brackets('{', [`${pyString(discriminator)}: ${tags[i]}`, ['**', call(this.#helper('write', struct.name.text), ['value'])]], '}'),
      ];
      if (i < variants.length - 1) {
        writer.push(...layout(['if isinstance', brackets('(', ['value', variantClass], ')')], '    ', ':'), ...layout(body, '        '));
      } else {
        writer.push(...layout(body, '    '));
      }
    });
    return [...blocks, alias, reader.join('\n'), writer.join('\n')].join('\n\n\n');
  }

  #error(error: IdlModel['errors'][number]): string {
    this.#use('typing', 'ClassVar');
    const name = this.#ref(error.name.text, (names) => names.errors);
    this.#exports.push(name);
    const lines = classLine(name, '_rt.DeclaredError');
    const doc = docstring(error.comment ? commentLines(error.comment) : [error.message], '    ');
    if (doc) lines.push(doc.trimEnd(), '');
    lines.push(
      `    CODE: ClassVar[int] = ${error.code}`,
      ...layout(['NAME: ClassVar[str] = ', text(shortName(error.name.text))], '    '),
      ...layout(['DESCRIPTION: ClassVar[str] = ', text(error.message)], '    '),
    );
    return lines.join('\n');
  }

  #client(iface: InterfaceDecl): string {
    this.#use('typing', 'ClassVar');
    const { names, fingerprints } = this.#context;
    const name = this.#ref(iface.name.text, (n) => n.clients);
    this.#exports.push(name);
    const methods = names.methods.get(iface.name.text)!;
    const lines = classLine(name, undefined);
    const doc = docstring(
      [...commentLines(iface.comment), '', `Calls the methods of ${iface.name.text}; clients of one package can share one Transport.`],
      '    ',
    );
    lines.push(doc.trimEnd(), '');
    lines.push(...layout(['CONTRACT: ClassVar[str] = ', text(fingerprints.get(iface.name.text) ?? '')], '    '));
    lines.push(docstring(['The contract fingerprint sent in the x-idlrpc-contract header (docs/protocol.md).'], '    ').trimEnd(), '');
    lines.push('    def __init__(self, transport: _rt.Transport) -> None:', '        self._transport = transport');
    for (const method of iface.methods) {
      const { call: callName, batchCall } = methods.get(method.name.text)!;
      const parameterNames = snakeNames(
        method.parameters.map((p) => p.name.text),
        new Set(['self']),
      );
      const signature: PyCode[] = [
        'self',
        ...method.parameters.map((p, i): PyCode => {
          const type = this.#annotation(p.type);
          if (p.optional !== true) return [`${parameterNames[i]}: `, type];
          return [`${parameterNames[i]}: `, this.#optional(type), ' = None'];
        }),
      ];
      const values = method.parameters.map((p, i): PyCode => {
        const written = this.#writer(p.type, parameterNames[i]);
        return p.optional === true && written !== parameterNames[i]
          ? conditional('None', `${parameterNames[i]} is None`, written)
          : written;
      });
      const required = method.parameters.filter((p) => p.optional !== true).length;
      const params =
        required === method.parameters.length
          ? brackets('[', values, ']')
          : call('_rt.sent_params', [brackets('[', values, ']'), `${required}`]);
      const item = flat(this.#annotation(method.returnType));
      const errors = method.raises.map((raised) => this.#ref(raised.text, (n) => n.errors));
      const errorTuple = brackets('(', errors, ')', { commas: 'tuple' });
      const wire = pyString(`${iface.name.text}.${method.name.text}`);
      const comment = commentLines(method.comment);
      const docLines = [
        ...(comment.length > 0 ? comment : [`Calls ${iface.name.text}.${method.name.text}.`]),
        ...argsLines(method.parameters.flatMap((p, i) => parameterNote(p.name.text, parameterNames[i], constraintLines(p)))),
        ...raisesLines(method.raises, this.#context.model, (raised) => this.#ref(raised, (n) => n.errors)),
      ];
      if (method.stream) {
        this.#use('typing', 'Iterator');
        const streamDoc = [...docLines, '', 'Yields the items as the server sends them; resumes after a lost connection.'];
        const unsent = [
          `_rt.Call[${item}]`,
          brackets('(', [wire, params, this.#reader(method.returnType), errorTuple, 'self.CONTRACT'], ')'),
        ];
        lines.push(
          '',
          ...def(callName, signature, `Iterator[${item}]`, '    '),
          docstring(streamDoc, '        ').trimEnd(),
          ...layout(['return ', call('self._transport.stream', [unsent])], '        '),
        );
        continue;
      }
      let result = item;
      let reader = this.#reader(method.returnType);
      if (method.returnOptional) {
        this.#use('typing', 'Optional');
        result = `Optional[${item}]`;
        reader = ['lambda value, path: ', call('_rt.read_optional', ['value', 'path', reader])];
      }
      lines.push('', ...def(callName, signature, result, '    '));
      const methodDoc = docstring(docLines, '        ');
      if (methodDoc) lines.push(methodDoc.trimEnd());
      lines.push(
        ...layout(['return ', call('self._transport.call', [call(`self.${batchCall}`, parameterNames)])], '        '),
        '',
        ...def(batchCall, signature, `_rt.Call[${result}]`, '    '),
        docstring([`The call of ${callName}, unsent: add it to a batch (Transport.batch).`], '        ').trimEnd(),
        ...layout(['return ', `_rt.Call[${result}]`, brackets('(', [wire, params, reader, errorTuple, 'self.CONTRACT'], ')')], '        '),
      );
    }
    return lines.join('\n');
  }
}

/** A doc comment as docstring lines, without its tag lines; `@deprecated` as a sentence. */
function commentLines(comment: string | undefined): string[] {
  const lines = docDescription(comment)?.split('\n') ?? [];
  const deprecated = docTags(comment).deprecated;
  if (deprecated !== undefined) lines.push('', `Deprecated${deprecated ? `: ${deprecated}` : '.'}`);
  return lines;
}

/** `# comment` lines above a module-level alias (a docstring would be an expression statement there). */
function docstringComment(comment: string | undefined): string[] {
  return wrapLines(commentLines(comment).map(commentLine), MAX_LINE - 2).map((line) => `# ${line}`.trimEnd());
}

/** The wire name when the attribute differs from it. */
function wireNote(wire: string, attribute: string): string[] {
  return wire === attribute ? [] : [`Wire name: ${wire}.`];
}

function parameterNote(wire: string, name: string, constraints: string[]): string[] {
  if (constraints.length === 0 && wire === name) return [];
  return [`${name}: ${[wire === name ? '' : `wire name ${wire}`, ...constraints].filter(Boolean).join('; ')}`];
}

/** The constraints of an attribute list, as documentation (the server checks them). */
function constraintLines(item: { attributes?: Field['attributes'] }): string[] {
  const constraints = constraintsOf(item.attributes);
  const entries = Object.entries(constraints ?? {});
  if (entries.length === 0) return [];
  return [`Constraints (checked by the server): ${entries.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(', ')}.`];
}

function argsLines(notes: string[]): string[] {
  return notes.length === 0 ? [] : ['', 'Args:', ...notes.map((note) => `    ${note}`)];
}

function raisesLines(raises: readonly { text: string }[], model: IdlModel, errorClass: (idlName: string) => string): string[] {
  if (raises.length === 0) return [];
  return [
    '',
    'Raises:',
    ...raises.map((raised) => {
      const error = model.errorsByName.get(raised.text);
      return `    ${errorClass(raised.text)}: code ${error?.code}, ${error?.message ?? ''}`.trimEnd();
    }),
  ];
}

/** Structs with every parent (of this module) before its children, otherwise in source order. */
function parentsFirst(structs: readonly StructDecl[], model: IdlModel): StructDecl[] {
  const own = new Set(structs);
  const done = new Set<StructDecl>();
  const ordered: StructDecl[] = [];
  const visit = (struct: StructDecl) => {
    if (done.has(struct)) return;
    done.add(struct);
    const parent = struct.extends && model.types.get(struct.extends.text);
    if (parent && parent.kind === 'struct' && own.has(parent)) visit(parent);
    ordered.push(struct);
  };
  for (const struct of structs) visit(struct);
  return ordered;
}
