/**
 * Quick fixes: a diagnostic that ends with "did you mean 'X'?" (unknown types, parents and errors)
 * offers to write X instead of the mistyped name.
 */
import { type CodeAction, CodeActionKind, type Diagnostic } from 'vscode-languageserver/node';
import { DIAGNOSTIC_SOURCE } from './diagnostics.js';

const SUGGESTION = /did you mean '([^']+)'\?$/;

/** The quick fixes for the diagnostics the editor passes (those at the cursor). */
export function quickFixes(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
    const message = typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
    const suggested = SUGGESTION.exec(message)?.[1];
    if (suggested === undefined) continue;
    actions.push({
      title: `Change to '${suggested}'`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: true,
      edit: { changes: { [uri]: [{ range: diagnostic.range, newText: suggested }] } },
    });
  }
  return actions;
}
