/**
 * Loading a file and the files it imports (docs/idl.md, "Several files"): every `import "path"` is
 * read relative to its importer, each file once however often it is imported, in import order (the
 * root first, then depth first in the order the imports are written). Problems with an import are
 * diagnostics at its `import` line: a file that cannot be read, a directory, a file that is not IDL,
 * an import cycle, a second file of a namespace already loaded.
 *
 * Reading goes through an {@link IdlFileHost}, so the same loader serves the CLI (paths as typed),
 * the plugin (absolute paths) and tests (files in memory).
 */
import path from 'node:path';
import type { IdlFile, ImportDecl } from './ast.js';
import { type Diagnostic, errorAt, relatedLocation } from './diagnostic.js';
import { type ParseResult, parse } from './parser.js';

/** How the loader reads imported files. */
export interface IdlFileHost {
  /**
   * The text of the file `fileName` (a path as the loader built it: the importer's name joined with
   * the import's path). Throws when the file cannot be read; the error's message is shown after
   * `cannot import "<path>": `, so it should say why (`no such file`, `it is a directory`).
   */
  readFile(fileName: string): string;
  /**
   * One name for every path of the same file (for example its resolved real path), so that a file
   * imported as `./common.idl` and `../api/common.idl` is loaded once. Defaults to the normalized path.
   */
  identity?(fileName: string): string;
}

/** One loaded file. */
export interface LoadedFile {
  file: IdlFile;
  /**
   * The namespace its declarations belong to: its own, or, for an imported file without one, its
   * importer's (the family's rule: such a file is merged into its importer). Undefined for the root
   * file's scope, whose names stay unqualified.
   */
  scope?: string;
}

export interface LoadedProgram {
  /** The root file first, then the imported ones in import order. */
  files: LoadedFile[];
  /** Syntax errors of every file and the problems of the imports; the program is only usable without errors. */
  diagnostics: Diagnostic[];
  /** Each file's text by its name, for code frames. */
  sources: Map<string, string>;
  /** The imported files that could not be read (missing, a directory, ...): a watcher should watch them too. */
  unreadable: string[];
}

/** What can be imported: IDL text, by the family's convention in `.idl` files. */
const IDL_EXTENSION = '.idl';

/**
 * Parses `rootText` (the file `rootFileName`) and every file it imports, directly or not, with
 * `parseFile`. Never throws for bad input: everything wrong is in `diagnostics`.
 */
export function loadProgram(
  rootText: string,
  rootFileName: string,
  host: IdlFileHost,
  parseFile: (text: string, fileName: string) => ParseResult = parse,
): LoadedProgram {
  const identity = (fileName: string) => host.identity?.(fileName) ?? path.normalize(fileName);
  const files: LoadedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const unreadable: string[] = [];
  const loaded = new Map<string, IdlFile>();
  /** The namespace of each loaded file that has one, with where it is declared. */
  const namespaces = new Map<string, IdlFile>();
  /** The files being loaded, innermost last: an import of one of them closes a cycle. */
  const loading: string[] = [];

  const add = (text: string, fileName: string, scope: string | undefined, isRoot: boolean): IdlFile => {
    const parsed = parseFile(text, fileName);
    diagnostics.push(...parsed.diagnostics);
    sources.set(fileName, parsed.file.source);
    const entry: LoadedFile = { file: parsed.file };
    if (scope !== undefined) entry.scope = scope;
    files.push(entry);
    if (isRoot && parsed.file.namespace) namespaces.set(parsed.file.namespace.name.text, parsed.file);
    return parsed.file;
  };

  const visit = (file: IdlFile, key: string, scope: string | undefined) => {
    loaded.set(key, file);
    loading.push(key);
    for (const declaration of file.imports ?? []) {
      const fileName = path.join(path.dirname(file.fileName), declaration.path);
      const importedKey = identity(fileName);
      if (loading.includes(importedKey)) {
        const chain = [...loading.slice(loading.indexOf(importedKey)), importedKey].map((k) => loaded.get(k)!.fileName);
        diagnostics.push(importError('import-cycle', `import cycle: ${chain.join(' -> ')}`, declaration));
        continue;
      }
      if (loaded.has(importedKey)) continue;
      const problem = readImport(declaration, fileName, host);
      if (typeof problem !== 'string') {
        diagnostics.push(problem);
        if (!unreadable.includes(fileName)) unreadable.push(fileName);
        continue;
      }
      const peek = parseFile(problem, fileName).file.namespace?.name.text;
      if (peek !== undefined) {
        const other = namespaces.get(peek);
        if (other) {
          const where = other.namespace!.name.span;
          diagnostics.push(
            importError(
              'duplicate-namespace',
              `namespace '${peek}' is already declared in ${other.fileName}: ${fileName} declares it too`,
              declaration,
              [relatedLocation(`namespace '${peek}' is declared here`, where)],
            ),
          );
          continue;
        }
      }
      const importedScope = peek ?? scope;
      const imported = add(problem, fileName, importedScope, false);
      if (peek !== undefined) namespaces.set(peek, imported);
      visit(imported, importedKey, importedScope);
    }
    loading.pop();
  };

  const root = add(rootText, rootFileName, undefined, true);
  visit(root, identity(rootFileName), undefined);
  return { files, diagnostics, sources, unreadable };
}

/** The text of the imported file, or the diagnostic saying why it cannot be imported. */
function readImport(declaration: ImportDecl, fileName: string, host: IdlFileHost): string | Diagnostic {
  if (!declaration.path.endsWith(IDL_EXTENSION)) {
    return importError(
      'import-not-idl',
      `cannot import "${declaration.path}": not an IDL file (the name must end in ${IDL_EXTENSION})`,
      declaration,
    );
  }
  let text: string;
  try {
    text = host.readFile(fileName);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return importError('import-unreadable', `cannot import "${declaration.path}": ${why}`, declaration);
  }
  // Text with NUL bytes is a binary file renamed, not IDL: say so rather than list its syntax errors.
  if (text.includes('\u0000')) {
    return importError('import-not-idl', `cannot import "${declaration.path}": not an IDL file (it holds binary data)`, declaration);
  }
  return text;
}

function importError(code: string, message: string, declaration: ImportDecl, related?: Diagnostic['related']): Diagnostic {
  return errorAt(code, message, declaration.pathSpan, related ? { related } : {});
}
