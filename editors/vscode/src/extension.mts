/**
 * The VS Code extension: starts the bundled language server (dist/server.mjs) for `.idl` files over
 * stdio. Colours come from the TextMate grammar, brackets and comments from the language
 * configuration; everything else (diagnostics, hover, navigation, rename, completion, outline,
 * folding, formatting) from the server.
 */
/// <reference types="vscode" />
import path from 'node:path';
import type { ExtensionContext } from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions, TransportKind } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/** Called by VS Code when a `.idl` file is opened. */
export async function activate(context: ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.mjs'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: ['--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = { documentSelector: [{ language: 'idl-rpc' }] };
  client = new LanguageClient('idlrpc', 'IDL RPC', serverOptions, clientOptions);
  await client.start();
}

/** Called by VS Code on shutdown: stops the server. */
export async function deactivate(): Promise<void> {
  await client?.stop();
}
