/**
 * Parse + check in one call: the entry point of the CLI, the plugin and the generators. A file that
 * imports others is compiled with them (program.ts loads them, link.ts makes one tree of them).
 */
import type { IdlFile } from './ast.js';
import { checkIdl } from './checker.js';
import type { Diagnostic } from './diagnostic.js';
import { IdlCompileError } from './errors.js';
import { nodeFileHost } from './file-host.js';
import { linkProgram } from './link.js';
import type { IdlModel } from './model.js';
import { parse } from './parser.js';
import { type IdlFileHost, loadProgram } from './program.js';
import { parseReusing } from './reparse.js';

export interface CompileOptions {
  /** How imported files are read; by default from disk, relative to the importing file's name. */
  host?: IdlFileHost;
  /**
   * The same files are compiled again and again (a dev server): each file's last clean parse is
   * kept, and a file is parsed again only where its text changed (reparse.ts). The result is the same.
   */
  reuse?: boolean;
}

export interface CompileResult {
  /** Present only when there is no error. */
  model?: IdlModel;
  /** The syntax tree, when the text parsed (even if the checker then found errors). */
  file?: IdlFile;
  /**
   * Every problem, sorted by position: the syntax errors (the checker does not run then), or all
   * the checker's errors.
   */
  diagnostics: Diagnostic[];
  /** The text the positions refer to (the input without a byte order mark), for code frames. */
  source: string;
  /**
   * The text of every file the diagnostics may point into, by file name: the root file's and each
   * imported one's. Pass it to `formatDiagnostics` to frame diagnostics in imported files too.
   */
  sources: ReadonlyMap<string, string>;
  /** The names of the files the model was compiled from: the root file first, then the imported ones. */
  files: string[];
  /** Imported files that could not be read: creating one can fix the compile, so watchers watch them. */
  unreadableImports: string[];
}

/**
 * Parses and checks IDL text without throwing. Use `formatDiagnostics(result.diagnostics,
 * result.source)` to show the problems.
 */
export function tryCompileIdl(text: string, fileName: string, options: CompileOptions = {}): CompileResult {
  const program = loadProgram(text, fileName, options.host ?? nodeFileHost(), options.reuse ? parseReusing : parse);
  const files = program.files.map((loaded) => loaded.file.fileName);
  const root = program.files[0].file;
  const common = { source: root.source, sources: program.sources, files, unreadableImports: program.unreadable };
  const inFileOrder = (diagnostics: Diagnostic[]) => sortByFile(diagnostics, files);
  // A partial tree is for tools (`parse`); here a syntax error means the checker does not run.
  if (program.diagnostics.length > 0) return { diagnostics: inFileOrder(program.diagnostics), ...common };
  const { model, diagnostics } = checkIdl(linkProgram(program.files), program.sources);
  if (model) {
    model.files = program.files.map(({ file, scope }) =>
      scope === undefined ? { fileName: file.fileName } : { fileName: file.fileName, namespace: scope },
    );
  }
  return model
    ? { model, file: root, diagnostics: inFileOrder(diagnostics), ...common }
    : { file: root, diagnostics: inFileOrder(diagnostics), ...common };
}

/** Diagnostics of the root file first, then of each imported file in import order; by position within a file. */
function sortByFile(diagnostics: Diagnostic[], files: readonly string[]): Diagnostic[] {
  const order = new Map(files.map((file, index) => [file, index]));
  const rank = (d: Diagnostic) => order.get(d.file) ?? files.length;
  return diagnostics.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
}

/**
 * Parses and checks IDL text.
 *
 * @throws IdlCompileError holding every diagnostic; its message shows them with code frames.
 */
export function compileIdl(text: string, fileName: string, options: CompileOptions = {}): IdlModel {
  const result = tryCompileIdl(text, fileName, options);
  if (!result.model) throw new IdlCompileError(result.diagnostics, result.sources);
  return result.model;
}
