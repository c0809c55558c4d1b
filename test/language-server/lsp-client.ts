/**
 * Test helper: a language client over real stdio. Starts a server process (by default the built
 * `idlrpc -lsp --stdio`), speaks JSON-RPC to it with vscode-jsonrpc, and collects the diagnostics it
 * publishes so a test can wait for those of a given document version.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { CompletionItem, Diagnostic, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { afterAll, beforeAll } from 'vitest';
import { BIN, ensureBuilt } from '../cli/run-cli.js';
import { positionOf } from './positions.js';

export interface LspClient {
  connection: MessageConnection;
  process: ChildProcess;
  initializeResult: InitializeResult;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** The messages the server logged to the client (`window/logMessage`), where it reports failed handlers. */
  logged(): string[];
  /** Opens `uri` with `text` at version 1 (the first publication for it can be awaited with `diagnostics`). */
  open(uri: string, text: string): void;
  /** Replaces the whole text of `uri` and returns the new version. */
  replace(uri: string, text: string): number;
  /** The diagnostics the server publishes for `uri` at `version` (or for any version when omitted). */
  diagnostics(uri: string, version?: number): Promise<Diagnostic[]>;
  request<R>(method: string, params: unknown): Promise<R>;
  close(): Promise<void>;
}

/** Starts a server and completes `initialize`/`initialized`. */
export async function startLspClient(command: string[] = [process.execPath, BIN, '-lsp', '--stdio'], cwd?: string): Promise<LspClient> {
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; version: number | undefined; resolve: (d: Diagnostic[]) => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
    for (const waiter of [...waiters]) {
      if (waiter.uri === params.uri && (waiter.version === undefined || waiter.version === params.version)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params.diagnostics);
      }
    }
  });
  const logged: string[] = [];
  connection.onNotification('window/logMessage', (params: { message: string }) => {
    logged.push(params.message);
  });
  connection.listen();
  const initializeResult = await connection.sendRequest<InitializeResult>('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
  });
  await connection.sendNotification('initialized', {});
  const versions = new Map<string, number>();
  return {
    connection,
    process: child,
    initializeResult,
    stderr: () => stderr,
    logged: () => logged,
    open(uri, text) {
      versions.set(uri, 1);
      void connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'idl-rpc', version: 1, text } });
    },
    replace(uri, text) {
      const version = (versions.get(uri) ?? 0) + 1;
      versions.set(uri, version);
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      return version;
    },
    diagnostics(uri, version) {
      const done = published.find((p) => p.uri === uri && (version === undefined || p.version === version));
      if (done) return Promise.resolve(done.diagnostics);
      return new Promise((resolve) => waiters.push({ uri, version, resolve }));
    },
    request: (method, params) => connection.sendRequest(method, params),
    async close() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      connection.dispose();
    },
  };
}

/** The `file:` URI of a path. */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/** A server with one document open, for the tests of one file (see `openedDocument`). */
export interface OpenedDocument {
  client: LspClient;
  /** The temporary folder the document is in. */
  folder: string;
  uri: string;
}

/**
 * Starts a server before the file's tests with `text` open as `shop.idl` in a new temporary folder
 * (named after `prefix`), and closes both after them. The fields are set once the tests run.
 */
export function openedDocument(prefix: string, text: string): OpenedDocument {
  const opened = {} as OpenedDocument;
  beforeAll(async () => {
    ensureBuilt();
    opened.folder = mkdtempSync(join(tmpdir(), prefix));
    opened.uri = fileUri(join(opened.folder, 'shop.idl'));
    opened.client = await startLspClient();
    opened.client.open(opened.uri, text);
  });
  afterAll(async () => {
    await opened.client?.close();
    if (opened.folder) rmSync(opened.folder, { recursive: true, force: true });
  });
  return opened;
}

/**
 * Completion at the end of `before` in a document of its own, `<name>.idl` beside the opened one,
 * holding `text` then `before` (what the user has typed so far).
 */
export function completeAfter(opened: OpenedDocument, text: string, before: string, name: string): Promise<CompletionItem[]> {
  const typed = `${text}\n${before}`;
  const other = fileUri(join(opened.folder, `${name}.idl`));
  opened.client.open(other, typed);
  return opened.client.request<CompletionItem[]>('textDocument/completion', {
    textDocument: { uri: other },
    position: positionOf(typed, before, 0, before.length),
  });
}

/** The labels of completion items, in order. */
export const completionLabels = (items: CompletionItem[]) => items.map((item) => item.label);
