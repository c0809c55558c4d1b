import type { Readable, Writable } from 'node:stream';
import type { RpcServer } from '../../../runtime/server.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError, parseArgs, type CliContext, type Command } from '../command.js';
import { loadMcpServer } from '../mcp-server-module.js';

/** What `-mcp-stdio` serves from and how it ends the process. */
export interface McpStdioHost {
  /** The protocol's input, one JSON-RPC message per line. */
  input: Readable;
  /**
   * Ends the process. A stdio server lives as long as its client keeps stdin open: when stdin ends
   * (or the module fails), the process ends even if the module keeps timers or connections open.
   */
  exit(code: number): void;
}

/**
 * `-mcp-stdio <server-module>`: serves the MCP binding of the server a module exports over
 * stdio, for desktop AI clients (docs/mcp.md). stdout is claimed for the protocol before the module
 * is imported, so what its top-level code and its handlers print goes to stderr.
 */
export function mcpStdioCommandWith(host: () => McpStdioHost): Command {
  return {
    flag: '-mcp-stdio',
    usage: '-mcp-stdio <server-module.js>',
    summary: "serve the MCP binding of the module's exported RpcServer over stdio, for desktop AI clients (docs/mcp.md)",
    async run(args, context) {
      const { positionals } = parseArgs(args, { booleans: ['-mcp-stdio'] });
      if (positionals.length !== 1) throw new UsageError('-mcp-stdio needs one server module (a .js, .mjs or .cjs file)');
      const { exit, input } = host();
      const code = await serveModule(positionals[0], input, context);
      exit(code);
      return code;
    },
  };
}

/** Serves until stdin ends; a module that cannot be served is reported (exit 1), with nothing on stdout. */
async function serveModule(path: string, input: Readable, context: CliContext): Promise<number> {
  // Loaded here only: the compiler commands need none of the runtime.
  const { claimStdout, serveMcpStdio } = await import('../../../runtime/mcp/stdio.js');
  const stdout = claimStdout();
  try {
    const server = await loadMcpServer(path, context.cwd);
    context.stderr(`idlrpc -mcp-stdio: serving ${path} (MCP over stdio; logs on stderr)\n`);
    // serveMcpStdio needs only `mcpPath`, `maxBodyBytes` and `handleHttp`, which the module's server
    // (perhaps of another copy of this package) has: loadMcpServer checked it.
    const served = serveMcpStdio(server as RpcServer, { input, output: stdout.protocol }).then(async () => {
      await new Promise<void>((flushed) => stdout.protocol.end(flushed));
      return EXIT_OK;
    });
    return await Promise.race([served, clientGone(stdout.protocol, context)]);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    context.stderr(`${error.message}\n`);
    return EXIT_FAILURE;
  } finally {
    stdout.release();
  }
}

/**
 * Resolves to exit 1 when stdout cannot be written (EPIPE: the client closed its end), with a
 * line on stderr instead of an unhandled 'error' event's stack: there is no one left to answer.
 */
function clientGone(protocol: Writable, context: CliContext): Promise<number> {
  return new Promise((resolve) => {
    protocol.once('error', (error: NodeJS.ErrnoException) => {
      context.stderr(`idlrpc -mcp-stdio: cannot write to stdout (${error.code ?? error.message}); the client is gone\n`);
      resolve(EXIT_FAILURE);
    });
  });
}

export const mcpStdioCommand: Command = mcpStdioCommandWith(() => ({ input: process.stdin, exit: (code) => process.exit(code) }));
