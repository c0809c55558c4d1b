/**
 * What every check pass reads and writes: the tree and its symbol table, the declarations by kind,
 * the names as the model will hold them, and where diagnostics go. Built once per checked file.
 */
import { CONTEXTUAL_BUILT_IN_TYPES } from '../built-in-types.js';
import type { EnumDecl, ErrorDecl, IdlFile, InterfaceDecl, StructDecl, UnionDecl } from '../ast.js';
import type { Diagnostic } from '../diagnostic.js';
import { createSuggester, suggestionCandidates, type SuggestionCandidates } from '../suggestion.js';
import type { SymbolTable } from '../symbols.js';

export interface CheckContext {
  file: IdlFile;
  symbols: SymbolTable;
  /** Declarations of each kind, in source order (the errors of every block). */
  enums: EnumDecl[];
  structs: StructDecl[];
  errors: ErrorDecl[];
  interfaces: InterfaceDecl[];
  /** Enums and structs by name (the first of each name, when it is not taken by an interface). */
  types: ReadonlyMap<string, EnumDecl | StructDecl>;
  interfacesByName: ReadonlyMap<string, InterfaceDecl>;
  /** The unions, in source order, and by name (the first of each name); not in `types`. */
  unions: UnionDecl[];
  unionsByName: ReadonlyMap<string, UnionDecl>;
  errorsByName: ReadonlyMap<string, ErrorDecl>;
  /**
   * Each struct's parent, for structs whose `extends` names a struct and that are the first of
   * their name. Filled by the `extends` pass, which leaves out the structs of a cycle: from then on
   * the graph is a forest.
   */
  parentOf: Map<StructDecl, StructDecl>;
  /** "; did you mean 'X'?" or "", for a type, a struct or an error name; one work budget for all. */
  suggestType: (name: string) => string;
  suggestStruct: (name: string) => string;
  suggestError: (name: string) => string;
  report: (diagnostic: Diagnostic) => void;
  /** The text of a file the tree was parsed from (undefined when not at hand), to locate what lies inside comments. */
  sourceOf: (fileName: string) => string | undefined;
}

/** One rule or group of rules, run in order over the context. */
export type CheckPass = (context: CheckContext) => void;

/** The context of `file`, whose diagnostics go to `diagnostics`. */
export function createCheckContext(
  file: IdlFile,
  symbols: SymbolTable,
  diagnostics: Diagnostic[],
  sources?: ReadonlyMap<string, string>,
): CheckContext {
  const enums: EnumDecl[] = [];
  const structs: StructDecl[] = [];
  const errors: ErrorDecl[] = [];
  const interfaces: InterfaceDecl[] = [];
  const unions: UnionDecl[] = [];
  for (const declaration of file.declarations) {
    if (declaration.kind === 'enum') enums.push(declaration);
    else if (declaration.kind === 'struct') structs.push(declaration);
    else if (declaration.kind === 'errors') for (const error of declaration.errors) errors.push(error);
    else if (declaration.kind === 'union') unions.push(declaration);
    else interfaces.push(declaration);
  }

  const types = new Map<string, EnumDecl | StructDecl>();
  const interfacesByName = new Map<string, InterfaceDecl>();
  const unionsByName = new Map<string, UnionDecl>();
  for (const [name, symbol] of symbols.types) {
    if (symbol.kind === 'interface') interfacesByName.set(name, symbol.node);
    else if (symbol.kind === 'union') unionsByName.set(name, symbol.node);
    else types.set(name, symbol.node);
  }
  const errorsByName = new Map<string, ErrorDecl>();
  for (const [name, symbol] of symbols.errors) errorsByName.set(name, symbol.node);

  // Candidate names for "did you mean", indexed on first use.
  const suggest = createSuggester();
  let typeCandidates: SuggestionCandidates | undefined;
  let structCandidates: SuggestionCandidates | undefined;
  let errorCandidates: SuggestionCandidates | undefined;
  const suggestType = (name: string) =>
    suggestion(
      suggest(
        name,
        (typeCandidates ??= suggestionCandidates([...types.keys(), 'string', 'int', 'float', 'bool', ...CONTEXTUAL_BUILT_IN_TYPES])),
      ),
    );
  const suggestStruct = (name: string) => suggestion(suggest(name, (structCandidates ??= suggestionCandidates(structNames(types)))));
  const suggestError = (name: string) => suggestion(suggest(name, (errorCandidates ??= suggestionCandidates(errorsByName.keys()))));

  return {
    file,
    symbols,
    enums,
    structs,
    errors,
    interfaces,
    unions,
    types,
    interfacesByName,
    unionsByName,
    errorsByName,
    parentOf: new Map(),
    suggestType,
    suggestStruct,
    suggestError,
    report: (diagnostic) => diagnostics.push(diagnostic),
    sourceOf: (fileName) => sources?.get(fileName) ?? (fileName === file.fileName ? file.source : undefined),
  };
}

function structNames(types: ReadonlyMap<string, EnumDecl | StructDecl>): string[] {
  return [...types.values()].filter((t) => t.kind === 'struct').map((t) => t.name.text);
}

/** "; did you mean 'X'?" when there is a suggestion, else "". */
function suggestion(suggested: string | undefined): string {
  return suggested === undefined ? '' : `; did you mean '${suggested}'?`;
}

/** "a struct", "an enum", "an interface". */
export function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}
