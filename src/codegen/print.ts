/**
 * "How it is printed": turns declarations into TypeScript, plain JavaScript or a `.d.ts`, with the
 * mappings of its source map.
 */
import type { SourceSpan } from '../idl/ast.js';
import {
  type ClassDeclaration,
  type ClassMember,
  type Code,
  type Declaration,
  isGeneratedPart,
  type ModuleId,
  type Parameter,
} from './declarations.js';
import { namespaceOfModuleId } from './namespace-view.js';
import { anchored, extractAnchors } from './source-anchor.js';
import type { Mapping } from './source-map.js';
import { indent, stringLiteral } from './source-text.js';

export type PrintTarget = 'ts' | 'js' | 'dts';

export interface PrintOptions {
  target: PrintTarget;
  /** The line(s) at the top of the file (the "generated, do not edit" header). */
  header: string;
  /** The import specifier of a module, or undefined when it is the module being printed. */
  importPath(module: ModuleId): string | undefined;
}

/** A printed file and where its text comes from in the IDL (see source-map.ts). */
export interface PrintedFile {
  text: string;
  mappings: Mapping[];
}

/**
 * Prints `declarations` as one file. Each IDL name printed maps to where the IDL wrote it; in a
 * class or function, every line from its first IDL name on maps to the latest IDL name printed
 * before it (a method's body to its IDL method). Everything else (header, imports, doc comments,
 * code with no IDL counterpart) maps to nothing.
 */
export function printFile(declarations: readonly Declaration[], options: PrintOptions): PrintedFile {
  const { target } = options;
  const imports = printImports(declarations, options);
  let text = imports ? `${options.header}\n${imports}` : options.header;
  let lastLine = countLineBreaks(text);
  const mappings = new MappingList();
  for (const declaration of declarations) {
    if (!isPrinted(declaration, target)) continue;
    // Declarations are joined with '\n' (each ends with one: a blank line between them).
    const printed = printedDeclaration(declaration, target);
    const firstLine = lastLine + 1;
    text += `\n${printed.text}`;
    lastLine = firstLine + countLineBreaks(printed.text);
    // Code that runs (methods, functions) maps line by line to its IDL name, for stack traces.
    const carries = declaration.kind === 'class' || declaration.kind === 'function';
    let next = 0;
    let latest: Mapping['source'];
    for (let line = firstLine; line <= lastLine; line++) {
      const anchor = printed.anchors[next];
      // A line starts unmapped, or where the latest name left off.
      if (!(anchor && anchor.line === line - firstLine && anchor.column === 0)) {
        mappings.add(line, 0, carries ? latest : undefined);
      }
      for (; printed.anchors[next]?.line === line - firstLine; next++) {
        const { column, source } = printed.anchors[next];
        mappings.add(line, column, source);
        latest = source;
      }
    }
  }
  return { text, mappings: mappings.kept };
}

type PrintedDeclaration = ReturnType<typeof extractAnchors>;

/** The printed text of the declarations given to {@link keepPrinted}, per target, as long as they live. */
const printedDeclarations = new WeakMap<Declaration, Partial<Record<PrintTarget, PrintedDeclaration>>>();

/**
 * Keeps the printed text of `declarations` from their next printing on: for declarations that later
 * generations reuse (phase-memo.ts), which are then printed once. Others are not kept: keeping
 * every declaration's text cost more than printing it.
 */
export function keepPrinted(declarations: readonly Declaration[]): void {
  for (const declaration of declarations) if (!printedDeclarations.has(declaration)) printedDeclarations.set(declaration, {});
}

/** A declaration's text without its anchors, and where they stood: kept, when {@link keepPrinted} says so. */
function printedDeclaration(declaration: Declaration, target: PrintTarget): PrintedDeclaration {
  const kept = printedDeclarations.get(declaration);
  if (kept === undefined) return extractAnchors(printDeclaration(declaration, target));
  return (kept[target] ??= extractAnchors(printDeclaration(declaration, target)));
}

/**
 * The mappings of a file as they are found, keeping only those that say something: of
 * consecutive unmapped ones the first (and none before the first mapped one). Most lines of a
 * generated file map to nothing; dropped as they come, they are never allocated.
 */
class MappingList {
  readonly kept: Mapping[] = [];
  private previousMapped = false;

  add(line: number, column: number, source: Mapping['source']): void {
    if (source !== undefined || this.previousMapped) this.kept.push({ line, column, source });
    this.previousMapped = source !== undefined;
  }
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** `name` marked with its IDL position, when it has one. */
function named(name: string, source: SourceSpan | undefined): string {
  return source ? anchored(name, source) : name;
}

/** JavaScript has no types; a `.d.ts` shows only what the module exports. */
function isPrinted(declaration: Declaration, target: PrintTarget): boolean {
  return target === 'js' ? declaration.kind !== 'type' : target === 'dts' ? declaration.exported : true;
}

function printImports(declarations: readonly Declaration[], options: PrintOptions): string {
  // module specifier -> name -> type-only?
  const byModule = new Map<string, Map<string, boolean>>();
  // Another namespace's module, imported whole: specifier -> its local name and whether only types are used.
  const wholeModules = new Map<string, { name: string; typeOnly: boolean }>();
  for (const declaration of declarations) {
    if (!isPrinted(declaration, options.target)) continue;
    for (const use of declaration.uses) {
      if (options.target === 'js' && use.typeOnly) continue;
      // A `.d.ts` has no bodies: it needs the types, the base class of a class, and what another
      // generated part declares (a client's signatures name the error classes of types).
      if (
        options.target === 'dts' &&
        !use.typeOnly &&
        !(declaration.kind === 'class' && declaration.extends === use.name) &&
        !isGeneratedPart(use.from)
      ) {
        continue;
      }
      const path = options.importPath(use.from);
      if (path === undefined) continue;
      if (namespaceOfModuleId(use.from) !== undefined) {
        const typeOnly = (wholeModules.get(path)?.typeOnly ?? true) && use.typeOnly;
        wholeModules.set(path, { name: use.name, typeOnly });
        continue;
      }
      const names = byModule.get(path) ?? new Map<string, boolean>();
      byModule.set(path, names);
      names.set(use.name, (names.get(use.name) ?? true) && use.typeOnly);
    }
  }
  const lines: string[] = [];
  for (const path of [...byModule.keys(), ...wholeModules.keys()].sort(compareModuleSpecifiers)) {
    const whole = wholeModules.get(path);
    if (whole) {
      const type = whole.typeOnly && options.target !== 'js' ? 'type ' : '';
      lines.push(`import ${type}* as ${whole.name} from ${stringLiteral(path)};`);
      continue;
    }
    const names = [...byModule.get(path)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const allTypes = names.every(([, isType]) => isType);
    if (options.target === 'ts' && allTypes) {
      lines.push(`import type { ${names.map(([name]) => name).join(', ')} } from ${stringLiteral(path)};`);
    } else {
      const list = names.map(([name, isType]) => (isType && options.target === 'ts' ? `type ${name}` : name));
      lines.push(`import { ${list.join(', ')} } from ${stringLiteral(path)};`);
    }
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

/** Packages before relative paths, then alphabetical: the usual import order. */
function compareModuleSpecifiers(a: string, b: string): number {
  const relative = (s: string) => (s.startsWith('.') ? 1 : 0);
  return relative(a) - relative(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function printDeclaration(declaration: Declaration, target: PrintTarget): string {
  const exported = declaration.exported ? 'export ' : '';
  const declare = target === 'dts' ? 'declare ' : '';
  switch (declaration.kind) {
    case 'type':
      return `${declaration.doc}${exported}${declaration.text.trimEnd()}\n`;
    case 'const': {
      if (target === 'dts')
        return `${declaration.doc}${exported}declare const ${named(declaration.name, declaration.source)}: ${declaration.declaredType};\n`;
      const annotation = target === 'ts' && declaration.annotation ? `: ${declaration.annotation}` : '';
      return `${declaration.doc}${exported}const ${named(declaration.name, declaration.source)}${annotation} = ${printCode(declaration.value, target)};\n`;
    }
    case 'function': {
      const signature = `${named(declaration.name, declaration.source)}(${printParameters(declaration.parameters, target)})`;
      if (target === 'dts') return `${declaration.doc}${exported}declare function ${signature}: ${declaration.returnType};\n`;
      const returns = target === 'ts' ? `: ${declaration.returnType}` : '';
      return `${declaration.doc}${exported}function ${signature}${returns} {\n${printBody(declaration.body, target, '  ')}}\n`;
    }
    case 'class':
      return `${declaration.doc}${exported}${declare}${printClass(declaration, target)}\n`;
    case 'code':
      return `${declaration.doc}${printCode(declaration.code, target)}\n`;
  }
}

function printClass(declaration: ClassDeclaration, target: PrintTarget): string {
  const heritage = declaration.extends ? ` extends ${declaration.extends}` : '';
  const members = declaration.members.map((member) => printMember(member, target)).filter((text) => text !== '');
  // A blank line between members, except between consecutive one-line statics and fields.
  const body = members.map((text, i) => (i > 0 && (text.includes('\n  ') || members[i - 1].includes('\n  ')) ? `\n${text}` : text));
  return `class ${named(declaration.name, declaration.source)}${heritage} {\n${body.join('')}}`;
}

function printMember(member: ClassMember, target: PrintTarget): string {
  const pad = '  ';
  switch (member.kind) {
    case 'static': {
      const name = named(member.name, member.source);
      if (target === 'dts') return `${member.doc}${pad}static readonly ${name}: ${member.declaredType};\n`;
      return `${member.doc}${pad}static ${target === 'ts' ? 'readonly ' : ''}${name} = ${member.value};\n`;
    }
    case 'privateField':
      if (target === 'dts') return `${pad}#private;\n`;
      return `${pad}${target === 'ts' ? 'readonly ' : ''}#${member.name}${target === 'ts' ? `: ${member.type}` : ''};\n`;
    case 'constructor': {
      const signature = `constructor(${printParameters(member.parameters, target)})`;
      if (target === 'dts') return `${member.doc}${pad}${signature};\n`;
      return `${member.doc}${pad}${signature} {\n${printBody(member.body, target, pad + '  ')}${pad}}\n`;
    }
    case 'method': {
      const signature = `${named(member.name, member.source)}(${printParameters(member.parameters, target)})`;
      if (target === 'dts') return `${member.doc}${pad}${signature}: ${member.returnType};\n`;
      const returns = target === 'ts' ? `: ${member.returnType}` : '';
      return `${member.doc}${pad}${signature}${returns} {\n${printBody(member.body, target, pad + '  ')}${pad}}\n`;
    }
  }
}

function printParameters(parameters: readonly Parameter[], target: PrintTarget): string {
  return parameters.map((p) => (target === 'js' ? p.name : `${p.name}${p.optional ? '?' : ''}: ${p.type}`)).join(', ');
}

function printBody(statements: readonly Code[], target: PrintTarget, pad: string): string {
  return statements.map((statement) => indent(printCode(statement, target), pad) + '\n').join('');
}

/** Prints code for a target (`.d.ts` files print no code). */
export function printCode(code: Code, target: PrintTarget): string {
  return code.map((piece) => (typeof piece === 'string' ? piece : target === 'ts' ? piece.ts : piece.js)).join('');
}
