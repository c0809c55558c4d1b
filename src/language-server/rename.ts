/**
 * Rename of a declaration of the document (struct, enum, interface, field, method, parameter, error,
 * enum value) with every reference to it. A new name that the language does not allow, or that
 * another declaration of the same scope already has, is refused with a message.
 */
import { ResponseError, LSPErrorCodes, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { nameProblem } from '../idl/names.js';
import { referencesOf } from '../idl/symbol-queries.js';
import type { IdlSymbol } from '../idl/symbols.js';
import type { Analysis } from './analysis.js';
import { symbolUnder } from './navigation.js';
import { toRange } from './positions.js';

/** Why a rename cannot be done, shown by the editor. */
function refuse(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** The document's own declaration named at `offset`; refuses names of imported files and places that are not names. */
function renameTarget(analysis: Analysis, offset: number): { symbol: IdlSymbol; range: Range } {
  const found = symbolUnder(analysis, offset);
  if (!found) throw refuse('there is no declared name here to rename');
  if (found.importedFrom) throw refuse(`'${found.symbol.name}' is declared in ${found.importedFrom.fileName}: rename it there`);
  if (found.symbol.kind === 'namespace') throw refuse('a namespace is renamed by editing its files and their imports');
  return { symbol: found.symbol, range: toRange(found.span) };
}

/** `prepareRename`: the range of the name and its text, or an error saying why it cannot be renamed. */
export function prepareRenameAt(analysis: Analysis, offset: number): { range: Range; placeholder: string } {
  const { symbol, range } = renameTarget(analysis, offset);
  return { range, placeholder: symbol.name };
}

/** The edits renaming the declaration at `offset` and every reference to it. */
export function renameAt(analysis: Analysis, offset: number, newName: string): WorkspaceEdit {
  const { symbol } = renameTarget(analysis, offset);
  if (newName === symbol.name) return { changes: { [analysis.document.uri]: [] } };
  const problem = nameProblem(newName);
  if (problem) throw refuse(problem);
  const taken = takenBy(analysis, symbol, newName);
  if (taken) throw refuse(`'${newName}' is already declared on line ${taken.nameSpan.start.line}`);
  const edits: TextEdit[] = [symbol.nameSpan, ...referencesOf(analysis.tree.symbols, symbol).map((r) => r.span)]
    .sort((a, b) => a.start.offset - b.start.offset)
    .map((span) => ({ range: toRange(span), newText: newName }));
  return { changes: { [analysis.document.uri]: edits } };
}

/** The declaration that already has `name` in the scope `symbol` is declared in, if any. */
function takenBy(analysis: Analysis, symbol: IdlSymbol, name: string): IdlSymbol | undefined {
  const { symbols } = analysis.tree;
  switch (symbol.kind) {
    case 'enum':
    case 'struct':
    case 'interface':
      return symbols.types.get(name);
    case 'error':
      return symbols.errors.get(name);
    default:
      // Members: the other members of the same enum, struct, interface or method.
      return symbols.declarations.find((other) => other !== symbol && other.container === symbol.container && other.name === name);
  }
}
