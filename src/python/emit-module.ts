/**
 * One Python module per namespace: enums, dataclasses, unions, declared errors, clients, and the
 * readers (results checked against the IDL) and writers (params as the wire wants them) they use.
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
import type { ProgramNames } from './program-names.js';
import { commentLine, docstring, pyString } from './python-text.js';

/** What a module needs to know: the program, its names, and which namespace it is (undefined: the root). */
export interface ModuleContext {
  model: IdlModel;
  names: ProgramNames;
  namespace: string | undefined;
  /** The interfaces' contract fingerprints, by IDL name. */
  fingerprints: ReadonlyMap<string, string>;
}

/** The names the runtime module exports that the root module re-exports. */
export const RUNTIME_EXPORTS = [
  'Batch',
  'BatchResult',
  'CONTRACT_HEADER',
  'Call',
  'DeclaredError',
  'InvalidResultError',
  'RpcError',
  'Transport',
  'TransportError',
] as const;

/** The body of the module (everything after the header). */
export function emitModule(context: ModuleContext): string {
  const emitter = new ModuleEmitter(context);
  return emitter.emit();
}

class ModuleEmitter {
  readonly #context: ModuleContext;
  readonly #imports = new Set<string>();
  readonly #namespaceImports = new Map<string, string>();
  readonly #typing = new Set<string>();
  readonly #exports: string[] = [];

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
    return this.#preamble(body.includes('_rt.')) + body;
  }

  /** The docstring, imports and `__all__`; `_rt` is imported only when the body uses it (pyright refuses unused imports). */
  #preamble(usesRuntime: boolean): string {
    const { model, namespace } = this.#context;
    const comment = namespace === undefined ? model.namespaceComment : undefined;
    const lines: string[] = [];
    const doc = docstring(docDescription(comment)?.split('\n') ?? [], '');
    if (doc) lines.push(doc.trimEnd(), '');
    lines.push('from __future__ import annotations', '');
    const stdlib = [...this.#imports].sort();
    for (const line of stdlib) lines.push(line);
    if (this.#typing.size > 0) lines.push(`from typing import ${[...this.#typing].sort().join(', ')}`);
    if (stdlib.length > 0 || this.#typing.size > 0) lines.push('');
    const runtime = namespace === undefined ? RUNTIME_EXPORTS : [];
    if (usesRuntime) lines.push('from . import rpc_runtime as _rt');
    if (runtime.length > 0) lines.push(`from .rpc_runtime import ${runtime.map((name) => `${name} as ${name}`).join(', ')}`);
    for (const [module, alias] of [...this.#namespaceImports].sort()) lines.push(`from . import ${module} as ${alias}`);
    lines.push('', `__all__: list[str] = [${this.#exports.map(pyString).join(', ')}]`, '', '');
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

  /** `read_<Class>` / `write_<Class>` of a declaration, through its module when it is another's. */
  #helper(kind: 'read' | 'write', idlName: string): string {
    const ref = this.#type(idlName);
    const dot = ref.lastIndexOf('.');
    return dot === -1 ? `${kind}_${ref}` : `${ref.slice(0, dot + 1)}${kind}_${ref.slice(dot + 1)}`;
  }

  #use(kind: 'typing' | 'datetime' | 'enum' | 'dataclass', name?: string): void {
    if (kind === 'typing') this.#typing.add(name!);
    else if (kind === 'datetime') this.#imports.add('import datetime as _dt');
    else if (kind === 'enum') this.#imports.add('import enum as _enum');
    else this.#imports.add('from dataclasses import dataclass as _dataclass');
  }

  /** The annotation of a type. */
  #annotation(type: TypeRef): string {
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
        return `list[${this.#annotation(type.element)}]`;
      case 'map':
        return `dict[str, ${this.#annotation(type.value)}]`;
      case 'named':
        return this.#type(type.name);
    }
  }

  /** A function `(value: object, path: str) -> T` that reads a value of the type, checked. */
  #reader(type: TypeRef): string {
    switch (type.kind) {
      case 'builtIn':
        return `_rt.read_${type.name === 'string' ? 'str' : type.name}`;
      case 'array':
        return `lambda value, path: _rt.read_list(value, path, ${this.#reader(type.element)})`;
      case 'map':
        return `lambda value, path: _rt.read_map(value, path, ${this.#reader(type.value)})`;
      case 'named':
        return this.#helper('read', type.name);
    }
  }

  /** An expression writing `value` (of the type) as JSON, or `value` itself when it needs nothing. */
  #writer(type: TypeRef, value: string, depth = 0): string {
    switch (type.kind) {
      case 'builtIn':
        if (type.name === 'timestamp' || type.name === 'date' || type.name === 'bytes') return `_rt.write_${type.name}(${value})`;
        return value;
      case 'array': {
        const item = `item${depth}`;
        const inner = this.#writer(type.element, item, depth + 1);
        return inner === item ? value : `[${inner} for ${item} in ${value}]`;
      }
      case 'map': {
        const [key, item] = [`key${depth}`, `item${depth}`];
        const inner = this.#writer(type.value, item, depth + 1);
        return inner === item ? value : `{${key}: ${inner} for ${key}, ${item} in ${value}.items()}`;
      }
      case 'named': {
        const declared = this.#context.model.types.get(type.name);
        if (declared?.kind === 'enum') return `${value}.value`;
        return `${this.#helper('write', type.name)}(${value})`;
      }
    }
  }

  #enum(decl: EnumDecl): string {
    this.#use('enum');
    const name = this.#type(decl.name.text);
    this.#exports.push(name);
    const members = enumMemberNames(decl.values.map((value) => value.name.text));
    const lines = [`class ${name}(_enum.Enum):`];
    const doc = docstring(commentLines(decl.comment), '    ');
    if (doc) lines.push(doc.trimEnd(), '');
    decl.values.forEach((value, i) => {
      lines.push(`    ${members[i]} = ${pyString(value.name.text)}`);
      const memberDoc = docstring(commentLines(value.comment), '    ');
      if (memberDoc) lines.push(memberDoc.trimEnd());
    });
    if (decl.values.length === 0) lines.push('    pass');
    lines.push('', '', `def read_${name}(value: object, path: str) -> ${name}:`, `    return _rt.read_enum(value, path, ${name})`);
    return lines.join('\n');
  }

  #struct(decl: StructDecl): string {
    this.#use('dataclass');
    const name = this.#type(decl.name.text);
    this.#exports.push(name);
    const parent = decl.extends ? this.#type(decl.extends.text) : undefined;
    const attributes = this.#context.names.fields.get(decl.name.text)!;
    const lines = ['@_dataclass(kw_only=True)', `class ${name}${parent ? `(${parent})` : ''}:`];
    const doc = docstring(commentLines(decl.comment), '    ');
    if (doc) lines.push(doc.trimEnd(), '');
    for (const field of decl.fields) lines.push(...this.#field(field, attributes.get(field.name.text)!));
    if (decl.fields.length === 0 && !doc) lines.push('    pass');
    lines.push('', '', ...this.#structReader(name, decl), '', '', ...this.#structWriter(name, decl));
    return lines.join('\n');
  }

  #field(field: Field, attribute: string): string[] {
    const type = this.#annotation(field.type);
    const lines: string[] = [];
    if (field.optional) {
      this.#use('typing', 'Optional');
      lines.push(`    ${attribute}: Optional[${type}] = None`);
    } else {
      lines.push(`    ${attribute}: ${type}`);
    }
    const notes = [...wireNote(field.name.text, attribute), ...constraintLines(field)];
    const comment = commentLines(field.comment);
    const doc = docstring(comment.length > 0 && notes.length > 0 ? [...comment, '', ...notes] : [...comment, ...notes], '    ');
    if (doc) lines.push(doc.trimEnd());
    return lines;
  }

  /** The keyword arguments that build a struct's class from a JSON object `fields`. */
  #construction(className: string, struct: StructDecl, indent: string): string[] {
    const attributes = this.#context.names.fields.get(struct.name.text)!;
    const fields = allFields(this.#context.model, struct);
    if (fields.length === 0) return [`${indent}return ${className}()`];
    const lines = [`${indent}return ${className}(`];
    for (const field of fields) {
      const wire = pyString(field.name.text);
      const attribute = attributes.get(field.name.text)!;
      const json = field.type.kind === 'builtIn' && field.type.name === 'json';
      const read =
        json && !field.optional
          ? `_rt.read_json_field(fields, ${wire}, path)`
          : `_rt.read_${field.optional ? 'optional_' : ''}field(fields, ${wire}, path, ${this.#reader(field.type)})`;
      lines.push(`${indent}    ${attribute}=${read},`);
    }
    lines.push(`${indent})`);
    return lines;
  }

  #structReader(name: string, struct: StructDecl): string[] {
    return [
      `def read_${name}(value: object, path: str) -> ${name}:`,
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
      (field) => `${pyString(field.name.text)}: ${this.#writer(field.type, `value.${attributes.get(field.name.text)!}`)}`,
    );
    const lines = [`def write_${name}(value: ${name}) -> dict[str, Any]:`];
    if (optional.length === 0) return [...lines, `    return {${entries.join(', ')}}`];
    lines.push(`    fields: dict[str, Any] = {${entries.join(', ')}}`);
    for (const field of optional) {
      const attribute = `value.${attributes.get(field.name.text)!}`;
      lines.push(
        `    if ${attribute} is not None:`,
        `        fields[${pyString(field.name.text)}] = ${this.#writer(field.type, attribute)}`,
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
      const lines = ['@_dataclass(kw_only=True)', `class ${variantClass}(${this.#type(struct.name.text)}):`];
      const doc = docstring(commentLines(variant.comment), '    ');
      if (doc) lines.push(doc.trimEnd(), '');
      lines.push(`    ${attribute}: Literal[${tag}] = ${tag}`);
      const note = docstring(wireNote(discriminator, attribute), '    ');
      if (note) lines.push(note.trimEnd());
      blocks.push(lines.join('\n'));
    }
    this.#use('typing', 'Union');
    const alias = [...docstringComment(decl.comment), `${name} = Union[${variants.map((v) => v.variantClass).join(', ')}]`].join('\n');
    const tags = variants.map((v) => pyString(v.variant.tag.text));
    const reader = [
      `def read_${name}(value: object, path: str) -> ${name}:`,
      '    fields = _rt.read_object(value, path)',
      // One variant: the tag is checked, then never compared (an unused name would fail pyright strict).
      `    ${tags.length === 1 ? '' : 'tag = '}_rt.read_tag(fields, ${pyString(discriminator)}, path, (${tags.join(', ')}${tags.length === 1 ? ',' : ''}))`,
    ];
    variants.forEach(({ variantClass, struct }, i) => {
      if (i < variants.length - 1) reader.push(`    if tag == ${tags[i]}:`, ...this.#construction(variantClass, struct, '        '));
      else reader.push(...this.#construction(variantClass, struct, '    '));
    });
    const writer = [`def write_${name}(value: ${name}) -> dict[str, Any]:`];
    variants.forEach(({ variantClass, struct }, i) => {
      const body = `return {${pyString(discriminator)}: ${tags[i]}, **${this.#helper('write', struct.name.text)}(value)}`;
      if (i < variants.length - 1) writer.push(`    if isinstance(value, ${variantClass}):`, `        ${body}`);
      else writer.push(`    ${body}`);
    });
    return [...blocks, alias, reader.join('\n'), writer.join('\n')].join('\n\n\n');
  }

  #error(error: IdlModel['errors'][number]): string {
    this.#use('typing', 'ClassVar');
    const name = this.#ref(error.name.text, (names) => names.errors);
    this.#exports.push(name);
    const lines = [`class ${name}(_rt.DeclaredError):`];
    const doc = docstring(error.comment ? commentLines(error.comment) : [error.message], '    ');
    if (doc) lines.push(doc.trimEnd(), '');
    lines.push(
      `    CODE: ClassVar[int] = ${error.code}`,
      `    NAME: ClassVar[str] = ${pyString(shortName(error.name.text))}`,
      `    DESCRIPTION: ClassVar[str] = ${pyString(error.message)}`,
    );
    return lines.join('\n');
  }

  #client(iface: InterfaceDecl): string {
    this.#use('typing', 'ClassVar');
    const { names, fingerprints } = this.#context;
    const name = this.#ref(iface.name.text, (n) => n.clients);
    this.#exports.push(name);
    const methods = names.methods.get(iface.name.text)!;
    const lines = [`class ${name}:`];
    const doc = docstring(
      [...commentLines(iface.comment), '', `Calls the methods of ${iface.name.text}; clients of one package can share one Transport.`],
      '    ',
    );
    lines.push(doc.trimEnd(), '');
    lines.push(`    CONTRACT: ClassVar[str] = ${pyString(fingerprints.get(iface.name.text) ?? '')}`);
    lines.push('    """The contract fingerprint sent in the x-idlrpc-contract header (docs/protocol.md)."""', '');
    lines.push('    def __init__(self, transport: _rt.Transport) -> None:', '        self._transport = transport');
    for (const method of iface.methods) {
      const { call, batchCall } = methods.get(method.name.text)!;
      const parameterNames = snakeNames(
        method.parameters.map((p) => p.name.text),
        new Set(['self']),
      );
      const signature = [
        'self',
        ...method.parameters.map((p, i) => {
          const type = this.#annotation(p.type);
          if (p.optional !== true) return `${parameterNames[i]}: ${type}`;
          this.#use('typing', 'Optional');
          return `${parameterNames[i]}: Optional[${type}] = None`;
        }),
      ].join(', ');
      const values = method.parameters.map((p, i) => {
        const written = this.#writer(p.type, parameterNames[i]);
        return p.optional === true && written !== parameterNames[i] ? `None if ${parameterNames[i]} is None else ${written}` : written;
      });
      const required = method.parameters.filter((p) => p.optional !== true).length;
      const params =
        required === method.parameters.length ? `[${values.join(', ')}]` : `_rt.sent_params([${values.join(', ')}], ${required})`;
      const item = this.#annotation(method.returnType);
      const errors = method.raises.map((raised) => this.#ref(raised.text, (n) => n.errors));
      const errorTuple = `(${errors.join(', ')}${errors.length === 1 ? ',' : ''})`;
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
        lines.push(
          '',
          `    def ${call}(${signature}) -> Iterator[${item}]:`,
          docstring(streamDoc, '        ').trimEnd(),
          `        return self._transport.stream(_rt.Call[${item}](${wire}, ${params}, ${this.#reader(method.returnType)}, ${errorTuple}, self.CONTRACT))`,
        );
        continue;
      }
      let result = item;
      let reader = this.#reader(method.returnType);
      if (method.returnOptional) {
        this.#use('typing', 'Optional');
        result = `Optional[${item}]`;
        reader = `lambda value, path: _rt.read_optional(value, path, ${reader})`;
      }
      const args = parameterNames.join(', ');
      lines.push('', `    def ${call}(${signature}) -> ${result}:`);
      const methodDoc = docstring(docLines, '        ');
      if (methodDoc) lines.push(methodDoc.trimEnd());
      lines.push(`        return self._transport.call(self.${batchCall}(${args}))`);
      lines.push(
        '',
        `    def ${batchCall}(${signature}) -> _rt.Call[${result}]:`,
        `        """The call of ${call}, unsent: add it to a batch (Transport.batch)."""`,
        `        return _rt.Call[${result}](${wire}, ${params}, ${reader}, ${errorTuple}, self.CONTRACT)`,
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
  return commentLines(comment).map((line) => `# ${commentLine(line)}`.trimEnd());
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
