/**
 * The compiler's diagnostics as the protocol's, grouped by the file they are in: the document's own
 * and those of the files it imports. Messages are the CLI's (`idlrpc -validate`) word for word,
 * control and bidirectional characters escaped as there (a message may quote an import's path);
 * the places a message names ("first declared here") become related locations.
 */
import { type Diagnostic as LspDiagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver/node';
import type { Diagnostic } from '../idl/diagnostic.js';
import { docTags } from '../idl/doc-tags.js';
import { escapeControlCharacters } from '../idl/visible-text.js';
import type { Analysis } from './analysis.js';
import { toRange } from './positions.js';

/** Shown as the diagnostics' source in editors. */
export const DIAGNOSTIC_SOURCE = 'idlrpc';

const LSP_SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  note: DiagnosticSeverity.Information,
};

/** The protocol's form of one compiler diagnostic; file names become URIs through `uriOf`. */
export function toLspDiagnostic(diagnostic: Diagnostic, uriOf: (fileName: string) => string): LspDiagnostic {
  const converted: LspDiagnostic = {
    range: toRange(diagnostic.range),
    severity: LSP_SEVERITY[diagnostic.severity],
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: escapeControlCharacters(diagnostic.message),
  };
  if (diagnostic.related && diagnostic.related.length > 0) {
    converted.relatedInformation = diagnostic.related.map((related) => ({
      location: { uri: uriOf(related.file), range: toRange(related.range) },
      message: escapeControlCharacters(related.message),
    }));
  }
  return converted;
}

/**
 * The diagnostics of an analysis by URI: always an entry for the document (empty when it is clean),
 * and one for each imported file with problems.
 */
export function diagnosticsByUri(analysis: Analysis, uriOf: (fileName: string) => string): Map<string, LspDiagnostic[]> {
  const byUri = new Map<string, LspDiagnostic[]>([[analysis.document.uri, []]]);
  for (const diagnostic of analysis.compiled.diagnostics) {
    const uri = diagnostic.file === analysis.document.fileName ? analysis.document.uri : uriOf(diagnostic.file);
    let list = byUri.get(uri);
    if (!list) byUri.set(uri, (list = []));
    list.push(toLspDiagnostic(diagnostic, uriOf));
  }
  byUri.get(analysis.document.uri)!.push(...deprecatedUses(analysis));
  return byUri;
}

/**
 * A hint at each name in the document that denotes a `@deprecated` declaration (of the document or
 * of a file it imports), tagged `Deprecated` so that editors strike the name through.
 */
export function deprecatedUses(analysis: Analysis): LspDiagnostic[] {
  const hints: LspDiagnostic[] = [];
  // Each declaration's comment is read once, however often it is used.
  const reasons = new Map<object, string | undefined>();
  const reasonOf = (node: object & { comment?: string }) => {
    if (!reasons.has(node)) reasons.set(node, node.comment?.includes('@') ? docTags(node.comment).deprecated : undefined);
    return reasons.get(node);
  };
  for (const reference of analysis.tree.symbols.references) {
    const space = reference.kind === 'raises' ? 'error' : 'type';
    const symbol = reference.symbol ?? analysis.importedDeclaration(reference.name, space)?.symbol;
    if (!symbol || !('comment' in symbol.node)) continue;
    const reason = reasonOf(symbol.node);
    if (reason === undefined) continue;
    hints.push({
      range: toRange(reference.span),
      severity: DiagnosticSeverity.Hint,
      code: 'deprecated',
      source: DIAGNOSTIC_SOURCE,
      message: escapeControlCharacters(`'${reference.name}' is deprecated${reason === '' ? '' : `: ${reason}`}`),
      tags: [DiagnosticTag.Deprecated],
    });
  }
  return hints;
}

/**
 * Which diagnostics each URI shows when several open documents report on it: an open document shows
 * its own analysis only (it is compiled as a root itself); a file that is not open shows what the
 * documents importing it found, each problem once.
 */
export class DiagnosticsBoard {
  /** The diagnostics each open document's analysis found, by the URI they are in. */
  private readonly reports = new Map<string, Map<string, LspDiagnostic[]>>();

  /** Records a document's new report; returns the URIs whose shown diagnostics may have changed. */
  report(rootUri: string, byUri: Map<string, LspDiagnostic[]>): Set<string> {
    const touched = new Set([...(this.reports.get(rootUri)?.keys() ?? []), ...byUri.keys()]);
    this.reports.set(rootUri, byUri);
    return touched;
  }

  /** Forgets a closed document's report; returns the URIs to publish again. */
  forget(rootUri: string): Set<string> {
    const touched = new Set([rootUri, ...(this.reports.get(rootUri)?.keys() ?? [])]);
    this.reports.delete(rootUri);
    return touched;
  }

  /** What `uri` shows now. */
  shown(uri: string): LspDiagnostic[] {
    const own = this.reports.get(uri);
    if (own) return own.get(uri) ?? [];
    const seen = new Set<string>();
    const shown: LspDiagnostic[] = [];
    for (const report of this.reports.values()) {
      for (const diagnostic of report.get(uri) ?? []) {
        const key = JSON.stringify(diagnostic);
        if (seen.has(key)) continue;
        seen.add(key);
        shown.push(diagnostic);
      }
    }
    return shown;
  }
}
