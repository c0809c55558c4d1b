/**
 * What the server knows about one open document at one version: the compilation with the files it
 * imports (diagnostics), and, on first question, the document's own partial tree and symbol table
 * (hover, navigation, rename, completion, outline) and those of the files it imports (for qualified
 * names such as `common.Money`).
 */
import type { IdlFile } from '../idl/ast.js';
import { type CompileResult, tryCompileIdl } from '../idl/compile.js';
import type { IdlFileHost } from '../idl/program.js';
import { parseReusing } from '../idl/reparse.js';
import { resolve, type IdlSymbol, type SymbolTable } from '../idl/symbols.js';
import type { OpenDocument } from './documents.js';
import { LineMap } from './positions.js';

/** A file of the program other than the document itself, with its symbol table. */
export interface ImportedFile {
  fileName: string;
  /** Its namespace, which qualifies its names in the importer; undefined when it has none (merged into the importer). */
  namespace: string | undefined;
  symbols: SymbolTable;
}

export class Analysis {
  private cachedTree?: { file: IdlFile; symbols: SymbolTable; lines: LineMap };
  private cachedImports?: ImportedFile[];

  private constructor(
    readonly document: OpenDocument,
    readonly version: number,
    readonly compiled: CompileResult,
  ) {}

  /**
   * Compiles the document's current text with the files it imports, read through `host`. Each file
   * is parsed again only where it changed since its last clean parse (reparse.ts): a keystroke in a
   * large file parses a declaration or two, and the trees asked for below are the same objects.
   */
  static of(document: OpenDocument, host: IdlFileHost): Analysis {
    return new Analysis(document, document.version, tryCompileIdl(document.text, document.fileName, { host, reuse: true }));
  }

  /** The document's partial tree (even with syntax errors), its symbol table and line map. */
  get tree(): { file: IdlFile; symbols: SymbolTable; lines: LineMap } {
    if (!this.cachedTree) {
      const file = parseReusing(this.document.text, this.document.fileName).file;
      this.cachedTree = { file, symbols: resolve(file), lines: new LineMap(file.source) };
    }
    return this.cachedTree;
  }

  /** Every imported file of the program, parsed and resolved once. */
  get imports(): ImportedFile[] {
    if (!this.cachedImports) {
      this.cachedImports = [];
      for (const fileName of this.compiled.files.slice(1)) {
        const text = this.compiled.sources.get(fileName);
        if (text === undefined) continue;
        const file = parseReusing(text, fileName).file;
        this.cachedImports.push({ fileName, namespace: file.namespace?.name.text, symbols: resolve(file) });
      }
    }
    return this.cachedImports;
  }

  /**
   * The declaration a name written in the document denotes in an imported file: `common.Money` in the
   * file of namespace `common`, a plain name in an imported file without namespace.
   */
  importedDeclaration(name: string, space: 'type' | 'error'): { file: ImportedFile; symbol: IdlSymbol } | undefined {
    const dot = name.lastIndexOf('.');
    const namespace = dot === -1 ? undefined : name.slice(0, dot);
    const local = dot === -1 ? name : name.slice(dot + 1);
    for (const file of this.imports) {
      if (file.namespace !== namespace) continue;
      const symbol = space === 'error' ? file.symbols.errors.get(local) : file.symbols.types.get(local);
      if (symbol) return { file, symbol };
    }
    return undefined;
  }

  /** The names the document can use from imported files, as it writes them (`common.Money`), with their declarations. */
  importedNames(space: 'type' | 'error'): { name: string; symbol: IdlSymbol }[] {
    const names: { name: string; symbol: IdlSymbol }[] = [];
    for (const file of this.imports) {
      const table = space === 'error' ? file.symbols.errors : file.symbols.types;
      for (const [name, symbol] of table) names.push({ name: file.namespace === undefined ? name : `${file.namespace}.${name}`, symbol });
    }
    return names;
  }
}
