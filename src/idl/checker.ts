/**
 * The checker: turns a syntax tree into the checked model, or explains every reason it cannot.
 *
 * All problems of a file are reported together, sorted by position, each pointing at the offending
 * name. A model is returned only when there is no error, so consumers never see a broken one.
 *
 * Diagnostic codes (stable, for tools): missing-namespace, duplicate-type, duplicate-interface,
 * duplicate-field, duplicate-method, duplicate-parameter, duplicate-enum-value, duplicate-error,
 * duplicate-error-code, duplicate-raises, empty-enum, error-code-range, error-code-reserved,
 * unknown-type, unknown-parent, extends-non-struct, unknown-error, extends-cycle, field-cycle,
 * invalid-name (only for trees built by code: the parser never produces one).
 */
import type {
  EnumDecl,
  ErrorDecl,
  Field,
  IdlFile,
  InterfaceDecl,
  Name,
  SourceSpan,
  StructDecl,
  TypeRef,
} from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import { requiredFieldCycles, type CycleStep } from './field-cycles.js';
import type { IdlModel } from './model.js';
import { nameProblem } from './names.js';
import { createSuggester, suggestionCandidates, type SuggestionCandidates } from './suggestion.js';

/** JSON-RPC 2.0 reserves these codes for the protocol itself. */
const JSON_RPC_RESERVED_MIN = -32768;
const JSON_RPC_RESERVED_MAX = -32000;

export interface CheckResult {
  /** Present only when `diagnostics` holds no error. */
  model?: IdlModel;
  diagnostics: Diagnostic[];
}

/** A cycle longer than this is shown by its first and last names only. */
const MAX_CYCLE_NAMES_SHOWN = 8;

/**
 * Checks a parsed file (docs/idl.md) and builds the model when it is valid. Takes time linear in the size of the
 * file, whatever its shape (long `extends` chains, thousands of unknown names, huge blocks).
 */
export function checkIdl(file: IdlFile): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const report = (code: string, message: string, span: SourceSpan, length?: number) => {
    diagnostics.push({
      severity: 'error',
      code,
      message,
      file: span.file,
      line: span.start.line,
      column: span.start.column,
      length: Math.max(1, length ?? spanLength(span)),
    });
  };

  if (!file.namespace) {
    report('missing-namespace', "missing namespace: start the file with 'namespace <name>'", startOfFile(file), 1);
  }

  // Parsed names are always valid; trees built by code (the OpenAPI converter) may not be.
  for (const name of declaredNames(file)) {
    const problem = nameProblem(name.text);
    if (problem) report('invalid-name', problem, name.span, name.text.length);
  }

  const enums: EnumDecl[] = [];
  const structs: StructDecl[] = [];
  const errors: ErrorDecl[] = [];
  const interfaces: InterfaceDecl[] = [];
  for (const declaration of file.declarations) {
    if (declaration.kind === 'enum') enums.push(declaration);
    else if (declaration.kind === 'struct') structs.push(declaration);
    else if (declaration.kind === 'errors') for (const error of declaration.errors) errors.push(error);
    else interfaces.push(declaration);
  }

  // Types, interfaces: one name space, since generated code declares them side by side.
  const types = new Map<string, EnumDecl | StructDecl>();
  const interfacesByName = new Map<string, InterfaceDecl>();
  const firstNamed = new Map<string, { kind: string; name: Name }>();
  for (const declaration of file.declarations) {
    if (declaration.kind === 'errors') continue;
    const previous = firstNamed.get(declaration.name.text);
    if (previous) {
      const code = declaration.kind === 'interface' ? 'duplicate-interface' : 'duplicate-type';
      report(
        code,
        `'${declaration.name.text}' is already declared as ${article(previous.kind)} on line ${previous.name.span.start.line}`,
        declaration.name.span,
      );
      continue;
    }
    firstNamed.set(declaration.name.text, { kind: declaration.kind, name: declaration.name });
    if (declaration.kind === 'interface') interfacesByName.set(declaration.name.text, declaration);
    else types.set(declaration.name.text, declaration);
  }

  const errorsByName = new Map<string, ErrorDecl>();
  const errorsByCode = new Map<number, ErrorDecl>();
  for (const error of errors) {
    const sameName = errorsByName.get(error.name.text);
    if (sameName) {
      report(
        'duplicate-error',
        `error '${error.name.text}' is already declared on line ${sameName.name.span.start.line}`,
        error.name.span,
      );
    } else {
      errorsByName.set(error.name.text, error);
    }
    if (!Number.isSafeInteger(error.code)) {
      const written = file.source.slice(error.codeSpan.start.offset, error.codeSpan.end.offset) || String(error.code);
      report('error-code-range', `error code ${written} is too large: use an integer within ±(2^53-1)`, error.codeSpan);
    } else if (error.code >= JSON_RPC_RESERVED_MIN && error.code <= JSON_RPC_RESERVED_MAX) {
      report(
        'error-code-reserved',
        `error code ${error.code} is reserved by JSON-RPC (-32768 to -32000): choose another code`,
        error.codeSpan,
      );
    } else {
      const sameCode = errorsByCode.get(error.code);
      if (sameCode) {
        report(
          'duplicate-error-code',
          `error code ${error.code} is already used by '${sameCode.name.text}' on line ${sameCode.codeSpan.start.line}`,
          error.codeSpan,
        );
      } else {
        errorsByCode.set(error.code, error);
      }
    }
  }

  for (const enumDecl of enums) {
    if (enumDecl.values.length === 0) {
      report('empty-enum', `enum '${enumDecl.name.text}' has no values: an enum needs at least one`, enumDecl.name.span);
    }
    const seen = new Map<string, Name>();
    for (const value of enumDecl.values) {
      const previous = seen.get(value.name.text);
      if (previous) {
        report(
          'duplicate-enum-value',
          `enum value '${value.name.text}' is already declared in enum '${enumDecl.name.text}' on line ${previous.span.start.line}`,
          value.name.span,
        );
      } else {
        seen.set(value.name.text, value.name);
      }
    }
  }

  // Candidate names for "did you mean", indexed on first use.
  const suggest = createSuggester();
  let typeCandidates: SuggestionCandidates | undefined;
  let structCandidates: SuggestionCandidates | undefined;
  let errorCandidates: SuggestionCandidates | undefined;
  const suggestType = (name: string) =>
    suggestion(suggest(name, (typeCandidates ??= suggestionCandidates([...types.keys(), 'string', 'int', 'float', 'bool']))));
  const suggestStruct = (name: string) =>
    suggestion(suggest(name, (structCandidates ??= suggestionCandidates(structNames(types)))));
  const suggestError = (name: string) => suggestion(suggest(name, (errorCandidates ??= suggestionCandidates(errorsByName.keys()))));

  const checkType = (type: TypeRef) => {
    if (type.kind === 'array') return checkType(type.element);
    if (type.kind === 'map') return checkType(type.value);
    if (type.kind === 'builtIn' || types.has(type.name)) return;
    report('unknown-type', unknownTypeMessage(type.name, interfacesByName, errorsByName, suggestType), type.span, type.name.length);
  };

  // Parents: resolve, then look for cycles before walking inherited fields.
  const parentOf = new Map<StructDecl, StructDecl>();
  for (const struct of structs) {
    if (!struct.extends) continue;
    const parent = types.get(struct.extends.text);
    if (!parent) {
      report(
        'unknown-parent',
        `struct '${struct.name.text}' extends '${struct.extends.text}', which is not declared${suggestStruct(struct.extends.text)}`,
        struct.extends.span,
      );
    } else if (parent.kind !== 'struct') {
      report(
        'extends-non-struct',
        `struct '${struct.name.text}' can only extend a struct, and '${parent.name.text}' is an enum`,
        struct.extends.span,
      );
    } else if (types.get(struct.name.text) === struct) {
      parentOf.set(struct, parent);
    }
  }
  const inExtendsCycle = new Set<StructDecl>();
  for (const cycle of extendsCycles(structs, parentOf)) {
    for (const member of cycle) inExtendsCycle.add(member);
    const [first] = cycle;
    const path = pathText(cycle.map((member) => member.name.text), first.name.text);
    report('extends-cycle', `struct '${first.name.text}' extends itself: ${path}`, first.extends!.span);
  }
  // From here on the extends graph is a forest: a struct of a cycle counts as a root.
  for (const member of inExtendsCycle) parentOf.delete(member);

  forEachStructWithInheritedFields(structs, parentOf, (struct, inherited) => {
    const own = new Map<string, InheritedField>();
    for (const field of struct.fields) {
      const previous = inherited.get(field.name.text) ?? own.get(field.name.text);
      if (!previous) {
        own.set(field.name.text, { field, owner: struct });
        continue;
      }
      const where =
        previous.owner === struct
          ? `in struct '${struct.name.text}' on line ${previous.field.name.span.start.line}`
          : `in parent struct '${previous.owner.name.text}' on line ${previous.field.name.span.start.line}`;
      report('duplicate-field', `field '${field.name.text}' is already declared ${where}`, field.name.span);
    }
    return own;
  });
  for (const struct of structs) for (const field of struct.fields) checkType(field.type);

  for (const iface of interfaces) {
    const methods = new Map<string, Name>();
    for (const method of iface.methods) {
      const previous = methods.get(method.name.text);
      if (previous) {
        report(
          'duplicate-method',
          `method '${method.name.text}' is already declared in interface '${iface.name.text}' on line ${previous.span.start.line}`,
          method.name.span,
        );
      } else {
        methods.set(method.name.text, method.name);
      }
      const parameters = new Map<string, Name>();
      for (const parameter of method.parameters) {
        if (parameters.has(parameter.name.text)) {
          report(
            'duplicate-parameter',
            `parameter '${parameter.name.text}' appears twice in method '${method.name.text}'`,
            parameter.name.span,
          );
        } else {
          parameters.set(parameter.name.text, parameter.name);
        }
        checkType(parameter.type);
      }
      checkType(method.returnType);
      const raised = new Set<string>();
      for (const name of method.raises) {
        if (!errorsByName.has(name.text)) {
          report('unknown-error', unknownErrorMessage(name.text, types, suggestError), name.span);
        } else if (raised.has(name.text)) {
          report('duplicate-raises', `'${name.text}' is listed twice in raises(...) of method '${method.name.text}'`, name.span);
        }
        raised.add(name.text);
      }
    }
  }

  // A struct whose required, directly struct-typed fields lead back to itself can never be built.
  for (const cycle of requiredFieldCycles(structs, types, parentOf)) {
    const [first] = cycle;
    report(
      'field-cycle',
      `struct '${first.from.name.text}' can never be built: its required fields lead back to it (${cycleText(cycle)}); mark one of them [optional]`,
      first.field.name.span,
    );
  }

  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };

  const model: IdlModel = {
    file,
    namespace: file.namespace!.name.text,
    enums,
    structs,
    errors,
    interfaces,
    types,
    errorsByName,
  };
  if (file.namespace!.comment !== undefined) model.namespaceComment = file.namespace!.comment;
  return { model, diagnostics };
}

/**
 * The `extends` cycles, each as its structs in `extends` order starting with the first one in
 * source order. Each struct is walked once: linear however long the chains are.
 */
function extendsCycles(structs: readonly StructDecl[], parentOf: ReadonlyMap<StructDecl, StructDecl>): StructDecl[][] {
  const order = new Map<StructDecl, number>();
  structs.forEach((struct, i) => order.set(struct, i));
  const ON_WALK = 1;
  const DONE = 2;
  const state = new Map<StructDecl, number>();
  const cycles: { first: number; members: StructDecl[] }[] = [];
  for (const struct of structs) {
    if (state.has(struct)) continue;
    const walk: StructDecl[] = [];
    let current: StructDecl | undefined = struct;
    for (; current && !state.has(current); current = parentOf.get(current)) {
      state.set(current, ON_WALK);
      walk.push(current);
    }
    if (current && state.get(current) === ON_WALK) {
      const members = walk.slice(walk.indexOf(current));
      let first = 0;
      members.forEach((member, i) => {
        if (order.get(member)! < order.get(members[first])!) first = i;
      });
      cycles.push({ first: order.get(members[first])!, members: [...members.slice(first), ...members.slice(0, first)] });
    }
    for (const member of walk) state.set(member, DONE);
  }
  return cycles.sort((a, b) => a.first - b.first).map((cycle) => cycle.members);
}

/** A field name seen on the way down an `extends` chain, and the struct that declared it first. */
type InheritedField = { field: Field; owner: StructDecl };

/**
 * Calls `visit` for every struct, parents before children, with the fields its ancestors declare
 * (by name, the root-most declaration of each); `visit` returns the struct's own new ones, which its
 * descendants then see. One walk of the `extends` forest, without recursion: linear however long
 * the chains are. `parentOf` must have no cycle.
 */
function forEachStructWithInheritedFields(
  structs: readonly StructDecl[],
  parentOf: ReadonlyMap<StructDecl, StructDecl>,
  visit: (struct: StructDecl, inherited: ReadonlyMap<string, InheritedField>) => ReadonlyMap<string, InheritedField>,
): void {
  const children = new Map<StructDecl, StructDecl[]>();
  const roots: StructDecl[] = [];
  for (const struct of structs) {
    const parent = parentOf.get(struct);
    if (!parent) roots.push(struct);
    else if (children.has(parent)) children.get(parent)!.push(struct);
    else children.set(parent, [struct]);
  }
  const inherited = new Map<string, InheritedField>();
  const stack: { struct: StructDecl; added: Iterable<string>; next: number }[] = [];
  const enter = (struct: StructDecl) => {
    const added = visit(struct, inherited);
    for (const [name, entry] of added) inherited.set(name, entry);
    stack.push({ struct, added: added.keys(), next: 0 });
  };
  for (const root of roots) {
    enter(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const below = children.get(top.struct);
      if (below && top.next < below.length) {
        enter(below[top.next++]);
        continue;
      }
      for (const name of top.added) inherited.delete(name);
      stack.pop();
    }
  }
}

/** `A -> B -> C -> A`, shortened in the middle when the cycle is long. */
function pathText(names: readonly string[], closing: string): string {
  if (names.length <= MAX_CYCLE_NAMES_SHOWN) return [...names, closing].join(' -> ');
  const hidden = names.length - 7;
  return [...names.slice(0, 4), `... (${hidden} more) ...`, ...names.slice(-3), closing].join(' -> ');
}

function cycleText(cycle: CycleStep[]): string {
  return pathText(
    cycle.map((step) => `${step.from.name.text}.${step.field.name.text}`),
    cycle[0].from.name.text,
  );
}

function unknownTypeMessage(
  name: string,
  interfaces: ReadonlyMap<string, InterfaceDecl>,
  errors: ReadonlyMap<string, ErrorDecl>,
  suggest: (name: string) => string,
): string {
  if (interfaces.has(name)) return `'${name}' is an interface, not a type: use a struct or enum here`;
  if (errors.has(name)) return `'${name}' is a declared error, not a type: use a struct or enum here`;
  return `unknown type '${name}'${suggest(name)}`;
}

function unknownErrorMessage(
  name: string,
  types: ReadonlyMap<string, EnumDecl | StructDecl>,
  suggest: (name: string) => string,
): string {
  const type = types.get(name);
  if (type) return `'${name}' is ${article(type.kind)}, not a declared error: raises(...) lists names from an errors block`;
  return `'${name}' is not a declared error${suggest(name)}`;
}

function structNames(types: ReadonlyMap<string, EnumDecl | StructDecl>): string[] {
  return [...types.values()].filter((t) => t.kind === 'struct').map((t) => t.name.text);
}

/** "; did you mean 'X'?" when there is a suggestion, else "". */
function suggestion(suggested: string | undefined): string {
  return suggested === undefined ? '' : `; did you mean '${suggested}'?`;
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function spanLength(span: SourceSpan): number {
  return span.end.line === span.start.line ? span.end.column - span.start.column : 1;
}

/** Every name the file declares (not the names it refers to). */
function declaredNames(file: IdlFile): Name[] {
  // Plain pushes: spreading a block of 200,000 items into push() overflows the stack.
  const names: Name[] = file.namespace ? [file.namespace.name] : [];
  for (const d of file.declarations) {
    if (d.kind === 'enum') {
      names.push(d.name);
      for (const value of d.values) names.push(value.name);
    } else if (d.kind === 'struct') {
      names.push(d.name);
      for (const field of d.fields) names.push(field.name);
    } else if (d.kind === 'errors') {
      for (const error of d.errors) names.push(error.name);
    } else {
      names.push(d.name);
      for (const method of d.methods) {
        names.push(method.name);
        for (const parameter of method.parameters) names.push(parameter.name);
      }
    }
  }
  return names;
}

function startOfFile(file: IdlFile): SourceSpan {
  const start = { offset: 0, line: 1, column: 1 };
  return { file: file.fileName, start, end: start };
}
