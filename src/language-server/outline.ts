/**
 * The document's outline (document symbols), the workspace's symbols (declarations of every open
 * document) and folding ranges (blocks, multi-line parameter lists, comment groups, import lines).
 */
import {
  type DocumentSymbol,
  type FoldingRange,
  FoldingRangeKind,
  SymbolKind,
  type SymbolInformation,
  SymbolTag,
} from 'vscode-languageserver/node';
import { isDeprecated } from '../idl/doc-tags.js';
import type { IdlSymbol, SymbolTable } from '../idl/symbols.js';
import type { Analysis } from './analysis.js';
import { toRange } from './positions.js';
import { summaryOf } from './hover.js';

const KINDS: Record<IdlSymbol['kind'], SymbolKind> = {
  namespace: SymbolKind.Namespace,
  enum: SymbolKind.Enum,
  'enum-value': SymbolKind.EnumMember,
  struct: SymbolKind.Struct,
  field: SymbolKind.Field,
  error: SymbolKind.Constant,
  interface: SymbolKind.Interface,
  method: SymbolKind.Method,
  parameter: SymbolKind.Variable,
  union: SymbolKind.Class,
  variant: SymbolKind.EnumMember,
};

/** Declarations as a tree: enums with their values, structs with their fields, interfaces with their methods. */
export function documentSymbols(symbols: SymbolTable): DocumentSymbol[] {
  const roots: DocumentSymbol[] = [];
  const converted = new Map<IdlSymbol, DocumentSymbol>();
  for (const symbol of symbols.declarations) {
    // Parameters are part of their method's line, not entries of their own.
    if (symbol.kind === 'parameter') continue;
    const entry: DocumentSymbol = {
      name: symbol.name,
      detail: symbol.kind === 'namespace' ? '' : summaryOf(symbol),
      kind: KINDS[symbol.kind],
      range: toRange(symbol.span),
      selectionRange: toRange(symbol.nameSpan),
    };
    if (deprecated(symbol)) entry.tags = [SymbolTag.Deprecated];
    converted.set(symbol, entry);
    const parent = symbol.container && converted.get(symbol.container);
    if (parent) (parent.children ??= []).push(entry);
    else roots.push(entry);
  }
  return roots;
}

/** The declarations of open documents whose name contains `query` (ignoring case). */
export function workspaceSymbols(analyses: readonly Analysis[], query: string): SymbolInformation[] {
  const wanted = query.toLowerCase();
  const found: SymbolInformation[] = [];
  for (const analysis of analyses) {
    for (const symbol of analysis.tree.symbols.declarations) {
      if (symbol.kind === 'parameter' || !symbol.name.toLowerCase().includes(wanted)) continue;
      const information: SymbolInformation = {
        name: symbol.name,
        kind: KINDS[symbol.kind],
        location: { uri: analysis.document.uri, range: toRange(symbol.nameSpan) },
      };
      if (symbol.container) information.containerName = symbol.container.name;
      if (deprecated(symbol)) information.tags = [SymbolTag.Deprecated];
      found.push(information);
    }
  }
  return found;
}

/** Foldable regions: every block and multi-line method, runs of two or more comment lines or import lines. */
export function foldingRanges(analysis: Analysis): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const { file, symbols } = analysis.tree;
  const addSpan = (startLine: number, endLine: number, kind?: FoldingRangeKind) => {
    if (endLine <= startLine) return;
    const range: FoldingRange = { startLine: startLine - 1, endLine: endLine - 1 };
    if (kind) range.kind = kind;
    ranges.push(range);
  };
  for (const declaration of file.declarations) addSpan(declaration.span.start.line, declaration.span.end.line);
  for (const symbol of symbols.declarations) if (symbol.kind === 'method') addSpan(symbol.span.start.line, symbol.span.end.line);

  const lines = file.source.split('\n');
  const runs = (test: (line: string) => boolean, kind: FoldingRangeKind) => {
    let start = -1;
    for (let i = 0; i <= lines.length; i++) {
      if (i < lines.length && test(lines[i])) {
        if (start === -1) start = i;
      } else if (start !== -1) {
        addSpan(start + 1, i, kind);
        start = -1;
      }
    }
  };
  runs((line) => line.trimStart().startsWith('//'), FoldingRangeKind.Comment);
  runs((line) => /^\s*import\s/.test(line), FoldingRangeKind.Imports);
  return ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

/** Whether a declaration's doc comment says `@deprecated` (editors strike it through). */
export function deprecated(symbol: IdlSymbol): boolean {
  return 'comment' in symbol.node && symbol.node.comment?.includes('@') === true && isDeprecated(symbol.node.comment);
}
