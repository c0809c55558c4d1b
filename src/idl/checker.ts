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
import type { IdlModel } from './model.js';
import { nameProblem } from './names.js';

/** JSON-RPC 2.0 reserves these codes for the protocol itself. */
const JSON_RPC_RESERVED_MIN = -32768;
const JSON_RPC_RESERVED_MAX = -32000;

export interface CheckResult {
  /** Present only when `diagnostics` holds no error. */
  model?: IdlModel;
  diagnostics: Diagnostic[];
}

/** Checks a parsed file (docs/idl.md) and builds the model when it is valid. */
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
    else if (declaration.kind === 'errors') errors.push(...declaration.errors);
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

  const checkType = (type: TypeRef) => {
    if (type.kind === 'array') return checkType(type.element);
    if (type.kind === 'map') return checkType(type.value);
    if (type.kind === 'builtIn' || types.has(type.name)) return;
    report('unknown-type', unknownTypeMessage(type.name, types, interfacesByName, errorsByName), type.span, type.name.length);
  };

  // Parents: resolve, then look for cycles before walking inherited fields.
  const parentOf = new Map<StructDecl, StructDecl>();
  for (const struct of structs) {
    if (!struct.extends) continue;
    const parent = types.get(struct.extends.text);
    if (!parent) {
      report(
        'unknown-parent',
        `struct '${struct.name.text}' extends '${struct.extends.text}', which is not declared${suggestion(struct.extends.text, structNames(types))}`,
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
  for (const struct of structs) {
    if (inExtendsCycle.has(struct)) continue;
    const chain: StructDecl[] = [];
    let current: StructDecl | undefined = struct;
    while (current && !chain.includes(current)) {
      chain.push(current);
      current = parentOf.get(current);
    }
    if (current && current === struct) {
      chain.forEach((member) => inExtendsCycle.add(member));
      const path = [...chain, struct].map((member) => member.name.text).join(' -> ');
      report('extends-cycle', `struct '${struct.name.text}' extends itself: ${path}`, struct.extends!.span);
    }
  }

  /** Own fields of the chain, root first; stops at cycles (already reported). */
  const inheritedChain = (struct: StructDecl): StructDecl[] => {
    const chain: StructDecl[] = [];
    for (let current: StructDecl | undefined = struct; current && !chain.includes(current); ) {
      chain.unshift(current);
      current = parentOf.get(current);
    }
    return chain;
  };

  for (const struct of structs) {
    const seen = new Map<string, { field: Field; owner: StructDecl }>();
    const chain = inExtendsCycle.has(struct) ? [struct] : inheritedChain(struct);
    for (const owner of chain) {
      for (const field of owner.fields) {
        const previous = seen.get(field.name.text);
        if (!previous) {
          seen.set(field.name.text, { field, owner });
          continue;
        }
        if (owner !== struct) continue; // reported when checking the ancestor that declares it
        const where =
          previous.owner === struct
            ? `in struct '${struct.name.text}' on line ${previous.field.name.span.start.line}`
            : `in parent struct '${previous.owner.name.text}' on line ${previous.field.name.span.start.line}`;
        report('duplicate-field', `field '${field.name.text}' is already declared ${where}`, field.name.span);
      }
    }
    for (const field of struct.fields) checkType(field.type);
  }

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
          report('unknown-error', unknownErrorMessage(name.text, types, errorsByName), name.span);
        } else if (raised.has(name.text)) {
          report('duplicate-raises', `'${name.text}' is listed twice in raises(...) of method '${method.name.text}'`, name.span);
        }
        raised.add(name.text);
      }
    }
  }

  // A struct whose required, directly struct-typed fields lead back to itself can never be built.
  for (const cycle of requiredFieldCycles(structs, types, inheritedChain)) {
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

interface CycleStep {
  /** The struct whose (possibly inherited) field is followed. */
  from: StructDecl;
  /** The struct that declares the field (the `from` struct or an ancestor). */
  owner: StructDecl;
  field: Field;
}

/**
 * Cycles in the graph "struct -> struct of a required field whose type is directly a struct".
 * One cycle per strongly connected component, starting at its first struct in source order.
 */
function requiredFieldCycles(
  structs: StructDecl[],
  types: ReadonlyMap<string, EnumDecl | StructDecl>,
  inheritedChain: (struct: StructDecl) => StructDecl[],
): CycleStep[][] {
  const edges = new Map<StructDecl, CycleStep[]>();
  for (const struct of structs) {
    const steps: CycleStep[] = [];
    for (const owner of inheritedChain(struct)) {
      for (const field of owner.fields) {
        if (field.optional || field.type.kind !== 'named') continue;
        const target = types.get(field.type.name);
        if (target?.kind === 'struct') steps.push({ from: struct, owner, field });
      }
    }
    edges.set(struct, steps);
  }
  const target = (step: CycleStep) => types.get((step.field.type as { name: string }).name) as StructDecl;

  const cycles: CycleStep[][] = [];
  const covered = new Set<StructDecl>();
  for (const start of structs) {
    if (covered.has(start)) continue;
    // Breadth-first search for the shortest path from `start` back to itself.
    const cameFrom = new Map<StructDecl, CycleStep>();
    const queue: StructDecl[] = [start];
    let closing: CycleStep | undefined;
    for (let head = 0; head < queue.length && !closing; head++) {
      for (const step of edges.get(queue[head]) ?? []) {
        const next = target(step);
        if (next === start) {
          closing = step;
          break;
        }
        if (!cameFrom.has(next)) {
          cameFrom.set(next, step);
          queue.push(next);
        }
      }
    }
    if (!closing) continue;
    const cycle: CycleStep[] = [closing];
    for (let at = closing.from; at !== start; ) {
      const step = cameFrom.get(at)!;
      cycle.unshift(step);
      at = step.from;
    }
    cycle.forEach((step) => covered.add(step.from));
    cycles.push(cycle);
  }
  return cycles;
}

function cycleText(cycle: CycleStep[]): string {
  return [...cycle.map((step) => `${step.from.name.text}.${step.field.name.text}`), cycle[0].from.name.text].join(' -> ');
}

function unknownTypeMessage(
  name: string,
  types: ReadonlyMap<string, EnumDecl | StructDecl>,
  interfaces: ReadonlyMap<string, InterfaceDecl>,
  errors: ReadonlyMap<string, ErrorDecl>,
): string {
  if (interfaces.has(name)) return `'${name}' is an interface, not a type: use a struct or enum here`;
  if (errors.has(name)) return `'${name}' is a declared error, not a type: use a struct or enum here`;
  return `unknown type '${name}'${suggestion(name, [...types.keys(), 'string', 'int', 'float', 'bool'])}`;
}

function unknownErrorMessage(
  name: string,
  types: ReadonlyMap<string, EnumDecl | StructDecl>,
  errors: ReadonlyMap<string, ErrorDecl>,
): string {
  const type = types.get(name);
  if (type) return `'${name}' is ${article(type.kind)}, not a declared error: raises(...) lists names from an errors block`;
  return `'${name}' is not a declared error${suggestion(name, [...errors.keys()])}`;
}

function structNames(types: ReadonlyMap<string, EnumDecl | StructDecl>): string[] {
  return [...types.values()].filter((t) => t.kind === 'struct').map((t) => t.name.text);
}

/** ", did you mean 'X'?" for a close enough candidate, else "". */
function suggestion(name: string, candidates: string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : `; did you mean '${best}'?`;
}

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function spanLength(span: SourceSpan): number {
  return span.end.line === span.start.line ? span.end.column - span.start.column : 1;
}

/** Every name the file declares (not the names it refers to). */
function declaredNames(file: IdlFile): Name[] {
  const names: Name[] = file.namespace ? [file.namespace.name] : [];
  for (const d of file.declarations) {
    if (d.kind === 'enum') names.push(d.name, ...d.values.map((v) => v.name));
    else if (d.kind === 'struct') names.push(d.name, ...d.fields.map((f) => f.name));
    else if (d.kind === 'errors') names.push(...d.errors.map((e) => e.name));
    else names.push(d.name, ...d.methods.flatMap((m) => [m.name, ...m.parameters.map((p) => p.name)]));
  }
  return names;
}

function startOfFile(file: IdlFile): SourceSpan {
  const start = { offset: 0, line: 1, column: 1 };
  return { file: file.fileName, start, end: start };
}
