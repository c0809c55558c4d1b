/**
 * The language server of the IDL (`idlrpc -lsp`): the protocol's wiring over stdio. Each feature is
 * its own module; this file keeps the open documents, recompiles a document (and the open documents
 * importing it) after each edit, publishes diagnostics and answers requests from a fresh analysis.
 *
 * It must never stop answering: every handler runs guarded, and a failure is logged to the client
 * and answered with an empty result.
 */
import {
  CodeActionKind,
  type Connection,
  createConnection,
  ProposedFeatures,
  ResponseError,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { Analysis } from './analysis.js';
import { completionsAt } from './completion.js';
import { DiagnosticsBoard, diagnosticsByUri } from './diagnostics.js';
import { OpenDocuments } from './documents.js';
import { editorFileHost } from './editor-file-host.js';
import { formattingEdits } from './formatting.js';
import { hoverAt } from './hover.js';
import { definitionAt, referencesAt } from './navigation.js';
import { documentSymbols, foldingRanges, workspaceSymbols } from './outline.js';
import { quickFixes } from './quick-fixes.js';
import { prepareRenameAt, renameAt } from './rename.js';

/** What the server can do, as told to the client in `initialize`. */
export const SERVER_CAPABILITIES: InitializeResult['capabilities'] = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  completionProvider: { triggerCharacters: ['(', ',', '[', '.', '@'] },
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
  foldingRangeProvider: true,
  documentFormattingProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
};

/** Serves the IDL language on `connection` (any transport) and starts listening. */
export function serveIdlLanguage(connection: Connection): void {
  const documents = new OpenDocuments();
  const host = editorFileHost(documents);
  const analyses = new Map<string, Analysis>();
  const board = new DiagnosticsBoard();
  const uriOf = (fileName: string) => documents.uriOf(fileName);
  const pending = new Set<string>();
  let flushScheduled = false;

  const logFailure = (what: string, error: unknown) =>
    connection.console.error(
      `idlrpc language server: ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );

  /** Runs a handler; a failure is logged and answered with `fallback`, a refusal (ResponseError) is passed on. */
  const guarded =
    <P, R>(what: string, fallback: R, handler: (params: P) => R | ResponseError<void>) =>
    (params: P): R | ResponseError<void> => {
      try {
        return handler(params);
      } catch (error) {
        if (error instanceof ResponseError) return error;
        logFailure(what, error);
        return fallback;
      }
    };

  /** Runs a notification handler; a failure is logged. */
  const guardedNotification =
    <P>(what: string, handler: (params: P) => void) =>
    (params: P): void => {
      try {
        handler(params);
      } catch (error) {
        logFailure(what, error);
      }
    };

  /** The analysis of the document's current text (computed now if an edit came after the last one). */
  const analysisOf = (uri: string): Analysis | undefined => {
    const document = documents.get(uri);
    if (!document) return undefined;
    const cached = analyses.get(uri);
    if (cached && cached.version === document.version && cached.document === document) return cached;
    const analysis = Analysis.of(document, host);
    analyses.set(uri, analysis);
    return analysis;
  };

  const publish = (uris: Iterable<string>, versionOf: (uri: string) => number | undefined) => {
    for (const uri of uris) {
      const version = versionOf(uri);
      connection.sendDiagnostics(
        version === undefined ? { uri, diagnostics: board.shown(uri) } : { uri, version, diagnostics: board.shown(uri) },
      );
    }
  };

  /** Recompiles the documents edited since the last flush, and the open documents that import them. */
  const flush = () => {
    flushScheduled = false;
    const edited = [...pending];
    pending.clear();
    const toAnalyze = new Set(edited);
    const editedFiles = new Set(edited.map((uri) => documents.get(uri)?.fileName));
    for (const [uri, analysis] of analyses) {
      if (analysis.compiled.files.slice(1).some((file) => editedFiles.has(file))) toAnalyze.add(uri);
    }
    const touched = new Set<string>();
    for (const uri of toAnalyze) {
      try {
        const analysis = analysisOf(uri);
        if (!analysis) continue;
        for (const changed of board.report(uri, diagnosticsByUri(analysis, uriOf))) touched.add(changed);
      } catch (error) {
        logFailure(`checking ${uri}`, error);
      }
    }
    publish(touched, (uri) => documents.get(uri)?.version);
  };
  const schedule = (uri: string) => {
    pending.add(uri);
    if (!flushScheduled) {
      flushScheduled = true;
      // After the messages already received: a burst of edits is checked once.
      setImmediate(flush);
    }
  };

  connection.onInitialize(() => ({ capabilities: SERVER_CAPABILITIES, serverInfo: { name: 'idlrpc' } }));

  connection.onDidOpenTextDocument(
    guardedNotification('didOpen', ({ textDocument }) => {
      documents.open(textDocument.uri, textDocument.version, textDocument.text);
      schedule(textDocument.uri);
    }),
  );
  connection.onDidChangeTextDocument(
    guardedNotification('didChange', ({ textDocument, contentChanges }) => {
      if (documents.change(textDocument.uri, textDocument.version, contentChanges)) schedule(textDocument.uri);
    }),
  );
  connection.onDidCloseTextDocument(
    guardedNotification('didClose', ({ textDocument }) => {
      const closed = documents.close(textDocument.uri);
      analyses.delete(textDocument.uri);
      pending.delete(textDocument.uri);
      publish(board.forget(textDocument.uri), (uri) => documents.get(uri)?.version);
      // Documents importing the closed file now read it from disk.
      if (closed) for (const [uri, analysis] of analyses) if (analysis.compiled.files.includes(closed.fileName)) schedule(uri);
    }),
  );

  /** Runs a question about a place in a document; null when the document is not open. */
  const at =
    <R>(answer: (analysis: Analysis, offset: number) => R) =>
    (params: { textDocument: { uri: string }; position: { line: number; character: number } }): R | null => {
      const analysis = analysisOf(params.textDocument.uri);
      if (!analysis) return null;
      return answer(analysis, analysis.tree.lines.offsetAt(params.position));
    };

  connection.onHover(guarded('hover', null, at(hoverAt)));
  connection.onDefinition(
    guarded(
      'definition',
      [],
      at((analysis, offset) => definitionAt(analysis, offset, uriOf)),
    ),
  );
  connection.onReferences(
    guarded('references', [], (params) =>
      at((analysis, offset) => referencesAt(analysis, offset, params.context.includeDeclaration, uriOf))(params),
    ),
  );
  connection.onPrepareRename(guarded('prepareRename', null, at(prepareRenameAt)));
  connection.onRenameRequest(
    guarded('rename', null, (params) => at((analysis, offset) => renameAt(analysis, offset, params.newName))(params)),
  );
  connection.onCompletion(guarded('completion', [], (params) => at(completionsAt)(params) ?? []));
  connection.onDocumentSymbol(
    guarded('documentSymbol', [], ({ textDocument }) => {
      const analysis = analysisOf(textDocument.uri);
      return analysis ? documentSymbols(analysis.tree.symbols) : [];
    }),
  );
  connection.onWorkspaceSymbol(
    guarded('workspaceSymbol', [], ({ query }) =>
      workspaceSymbols(
        documents.all().flatMap((document) => analysisOf(document.uri) ?? []),
        query,
      ),
    ),
  );
  connection.onFoldingRanges(
    guarded('foldingRange', [], ({ textDocument }) => {
      const analysis = analysisOf(textDocument.uri);
      return analysis ? foldingRanges(analysis) : [];
    }),
  );
  connection.onDocumentFormatting(
    guarded('formatting', [], ({ textDocument }) => {
      const document = documents.get(textDocument.uri);
      return document ? formattingEdits(document) : [];
    }),
  );
  connection.onCodeAction(guarded('codeAction', [], ({ textDocument, context }) => quickFixes(textDocument.uri, context.diagnostics)));

  connection.listen();
}

/**
 * Runs the language server over this process's stdin and stdout until the client ends it, or its
 * input ends. Given the streams themselves (message readers would hide them), the library ends the
 * process when stdin ends or closes, even in the middle of a message: exit code 0 after a
 * `shutdown` request, 1 otherwise, as the protocol says. An editor that dies leaves no server behind.
 */
export function runStdioLanguageServer(): void {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  serveIdlLanguage(connection);
}
