/**
 * "What to emit": the generated code as a list of declarations, independent of how it is printed.
 *
 * The same declarations print as TypeScript (the CLI's output directory), as plain JavaScript (what
 * the bundler plugin serves, because bundlers do not strip TypeScript from a plugin's output) and as a
 * `.d.ts` (the types of that JavaScript). Each declaration therefore keeps its TypeScript-only parts
 * (annotations, casts, declared types) apart from the code that runs.
 */
import type { SourceSpan } from '../idl/ast.js';

/**
 * The modules generated code imports from. `types`, `client` and `server` are generated files;
 * `namespace:<ns>` is the module of another namespace of the program (imported as a whole:
 * `import * as <ns> from ...`).
 */
export type ModuleId = 'typebox' | 'runtime' | 'runtimeClient' | GeneratedPart | `namespace:${string}`;

/** The generated files of the CLI layout; the plugin prints all three into one module. */
export type GeneratedPart = 'types' | 'client' | 'server';

/** The generated parts, in the order an index re-exports them (types first: the others import it). */
export const GENERATED_PARTS: readonly GeneratedPart[] = ['types', 'client', 'server'];

/** Whether a module is one of the generated parts, not the runtime, TypeBox or another namespace. */
export function isGeneratedPart(module: ModuleId): module is GeneratedPart {
  return (GENERATED_PARTS as readonly ModuleId[]).includes(module);
}

/** A name a declaration uses from another module. */
export interface Use {
  from: ModuleId;
  name: string;
  /** Used only in types: imported with `type`, dropped from JavaScript. */
  typeOnly: boolean;
}

/**
 * Source text. A `{ ts, js }` piece is printed differently in TypeScript and JavaScript (type
 * annotations, `as` casts, validator code compiled for each language).
 */
export type Code = readonly (string | { readonly ts: string; readonly js: string })[];

/** Marks `text` as TypeScript-only inside `Code`. */
export function typeOnly(text: string): { ts: string; js: string } {
  return { ts: text, js: '' };
}

export interface Parameter {
  name: string;
  type: string;
  optional?: boolean;
}

interface DeclarationBase {
  /** The generated file the declaration belongs to (in the CLI layout). */
  part: GeneratedPart;
  name: string;
  /** Rendered TSDoc (see `docComment`), or ''. */
  doc: string;
  exported: boolean;
  uses: readonly Use[];
  /**
   * The IDL name the declaration stands for (its source map points its name there). A `type`
   * declaration marks the names in its `text` itself (`anchored`, source-anchor.ts).
   */
  source?: SourceSpan;
}

/** An interface or type alias: `text` is everything after `export `. TypeScript and `.d.ts` only. */
export interface TypeDeclaration extends DeclarationBase {
  kind: 'type';
  text: string;
}

export interface ConstDeclaration extends DeclarationBase {
  kind: 'const';
  /** The annotation printed in TypeScript, when inference is not what we want. */
  annotation?: string;
  /** The type printed in the `.d.ts`. */
  declaredType: string;
  value: Code;
}

export interface FunctionDeclaration extends DeclarationBase {
  kind: 'function';
  parameters: readonly Parameter[];
  returnType: string;
  /** Statements, one per line, without the outer indentation. */
  body: readonly Code[];
}

export interface ClassDeclaration extends DeclarationBase {
  kind: 'class';
  extends?: string;
  members: readonly ClassMember[];
}

/** Code printed as it is in TypeScript and JavaScript (compiled validator functions); not in `.d.ts`. */
export interface CodeDeclaration extends DeclarationBase {
  kind: 'code';
  code: Code;
}

export type ClassMember =
  | { kind: 'static'; doc: string; name: string; value: string; declaredType: string; source?: SourceSpan }
  | { kind: 'privateField'; name: string; type: string }
  | { kind: 'constructor'; doc: string; parameters: readonly Parameter[]; body: readonly Code[] }
  | {
      kind: 'method';
      doc: string;
      name: string;
      parameters: readonly Parameter[];
      returnType: string;
      body: readonly Code[];
      /** The IDL method it stands for. */
      source?: SourceSpan;
    };

export type Declaration = TypeDeclaration | ConstDeclaration | FunctionDeclaration | ClassDeclaration | CodeDeclaration;
