/**
 * The server module of `idlrpc -mcp-stdio` (docs/mcp.md, "idlrpc -mcp-stdio"): a JavaScript module
 * whose export `server` (or, without one, its default export) is an `RpcServer` created with an
 * MCP binding, or a function (maybe async) returning one. Every way this can fail is a `CliError`
 * naming the file, so the command exits 1 with a message instead of a stack of the loader.
 */
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RpcServer } from '../../runtime/server.js';
import { CliError } from './command.js';

/** What the command needs of the server: the runtime's `RpcServer` from whichever copy of the package the module imports. */
export type McpServer = Pick<RpcServer, 'handleHttp' | 'mcpPath' | 'maxBodyBytes'>;

const EXPORT_NAMES = ['server', 'default'] as const;

const HOW_TO_EXPORT =
  "export the server as `server` or as the default export: export const server = createRpcServer({ idl, handlers, mcp: mcpBinding({ expose: ['MyService'] }) })";

/**
 * Imports `path` (resolved against `cwd`) and returns its server, checked to have an MCP binding.
 *
 * @throws CliError when the file is missing, cannot be imported, exports no server, or the server
 *   has no MCP binding.
 */
export async function loadMcpServer(path: string, cwd: string): Promise<McpServer> {
  const file = resolve(cwd, path);
  const exports = await importModule(path, file);
  const name = EXPORT_NAMES.find((key) => exports[key] !== undefined);
  if (name === undefined) throw new CliError(`${path}: exports no server; ${HOW_TO_EXPORT}`);
  const server = await serverOf(exports[name], path, name);
  if (server.mcpPath === undefined) {
    throw new CliError(
      `${path}: the server (export \`${name}\`) has no MCP binding; create it with the option ` +
        "mcp: mcpBinding({ expose: [...] }) (import { mcpBinding } from 'unplugin-idl-rpc/runtime/mcp')",
    );
  }
  return server;
}

async function importModule(path: string, file: string): Promise<Record<string, unknown>> {
  const problem = fileProblem(file);
  if (problem !== undefined) throw new CliError(`cannot load ${path}: ${problem}`);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /^\.[cm]?ts$/.test(extname(file))) {
      throw new CliError(
        `cannot load ${path}: Node cannot import TypeScript here; build the module to JavaScript and give idlrpc the .js file`,
      );
    }
    throw new CliError(`cannot load ${path}: ${describe(error)}`);
  }
}

/** The export itself, or what it returns when it is a function (awaited). */
async function serverOf(exported: unknown, path: string, name: string): Promise<McpServer> {
  let value = exported;
  if (typeof value === 'function') {
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      throw new CliError(`${path}: the function exported as \`${name}\` failed: ${describe(error)}`);
    }
  }
  if (!isRpcServer(value)) {
    const what = typeof exported === 'function' ? 'returns' : 'is';
    throw new CliError(`${path}: the export \`${name}\` ${what} no RpcServer (${kindOf(value)}); ${HOW_TO_EXPORT}`);
  }
  return value;
}

function isRpcServer(value: unknown): value is McpServer {
  return typeof value === 'object' && value !== null && typeof (value as { handleHttp?: unknown }).handleHttp === 'function';
}

/** Why `file` cannot be imported before trying (the loader's own message would be about a URL). */
function fileProblem(file: string): string | undefined {
  try {
    return statSync(file).isFile() ? undefined : 'not a file';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
  }
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without handleHttp' : `a ${typeof value}`;
}

/** Where this CLI's own modules are: their frames say nothing about the user's module. */
const CLI_DIRECTORY = new URL('.', import.meta.url).href;

/**
 * An error as its stack (where the module failed) without the frames of Node's loader and of this
 * CLI below it, or, for a thrown non-error, its text.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = (error.stack ?? error.message).split('\n');
  return lines.filter((line) => !/^\s+at /.test(line) || !(line.includes('node:internal/') || line.includes(CLI_DIRECTORY))).join('\n');
}
