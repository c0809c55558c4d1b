import { EXIT_FAILURE, parseArgs, type CliContext, type Command } from '../command.js';

/** The package the language server is built on: an optional peer dependency, installed by those who use the server. */
export const LANGUAGE_SERVER_PACKAGE = 'vscode-languageserver';

/** What `-lsp` says when the optional peer dependency is not installed. */
export const MISSING_LANGUAGE_SERVER_MESSAGE =
  `idlrpc -lsp needs the package ${LANGUAGE_SERVER_PACKAGE} (an optional peer dependency of unplugin-idl-rpc); install it with:\n` +
  `  npm install --save-dev ${LANGUAGE_SERVER_PACKAGE}@10\n`;

type ServerModule = { runStdioLanguageServer(): void };

/**
 * `-lsp [--stdio]`: the language server over stdin/stdout (`--stdio` is what LSP clients pass; it is
 * the only transport). The server module is loaded only here, so no other command (and neither the
 * plugin nor the runtime) needs its dependency.
 */
export function lspCommandWith(loadServer: () => Promise<ServerModule>): Command {
  return {
    flag: '-lsp',
    usage: '-lsp [--stdio]',
    summary: `run the language server over stdio (needs ${LANGUAGE_SERVER_PACKAGE})`,
    async run(args, context: CliContext) {
      parseArgs(args, { booleans: ['-lsp', '-stdio'] });
      let server: ServerModule;
      try {
        server = await loadServer();
      } catch (error) {
        if (!isMissingPackage(error, LANGUAGE_SERVER_PACKAGE)) throw error;
        context.stderr(MISSING_LANGUAGE_SERVER_MESSAGE);
        return EXIT_FAILURE;
      }
      server.runStdioLanguageServer();
      // The server ends the process itself (on the client's `exit`, or when stdin closes).
      return new Promise<number>(() => {});
    },
  };
}

function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error instanceof Error && error.message.includes(`'${name}`);
}

export const lspCommand: Command = lspCommandWith(() => import('../../language-server/server.js'));
