/**
 * Formatting with the package's formatter (`idlrpc -format`): one edit replacing the text with its
 * canonical layout. A file with syntax errors, or one the formatter would lose a comment of, is left
 * as it is (no edits), as `idlrpc -format -w` does.
 */
import type { TextEdit } from 'vscode-languageserver/node';
import { droppedComments, printIdl } from '../idl/format.js';
import { parse } from '../idl/parser.js';
import type { OpenDocument } from './documents.js';
import { LineMap } from './positions.js';

/** The edits that format the document; empty when it is formatted already or cannot be formatted. */
export function formattingEdits(document: OpenDocument): TextEdit[] {
  const { file, diagnostics } = parse(document.text, document.fileName);
  if (diagnostics.length > 0) return [];
  const formatted = printIdl(file);
  if (formatted === document.text || droppedComments(file.source, formatted).length > 0) return [];
  return [{ range: new LineMap(document.text).wholeRange(), newText: formatted }];
}
