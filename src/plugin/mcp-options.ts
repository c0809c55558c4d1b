/**
 * The plugin's `server.mcp` option: the MCP binding (docs/mcp.md) on the Vite dev server and
 * `vite preview`, checked when the plugin is made, so that a wrong value is an error at start-up
 * naming the option rather than a failure on the first MCP request.
 */
import type { McpOptions } from '../../runtime/mcp/mcp-binding.js';

/** `mcpBinding`'s options but `resources`: the plugin gives the `.idl` source and the documents itself. */
export type McpPluginOptions = Omit<McpOptions, 'resources'>;

/** `server.mcp` checked, with its path (a path of the Vite server, no trailing slash) filled in. */
export type ResolvedMcpOptions = McpPluginOptions & { path: string };

const PREFIX = 'unplugin-idl-rpc: server.mcp';

/** Checks `server.mcp` (a value a user can get wrong); `rpcPath` is the resolved endpoint path it must not take. */
export function resolveMcpOptions(options: McpPluginOptions, rpcPath: string): ResolvedMcpOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new Error(
      `${PREFIX} must be an object of mcpBinding's options, e.g. { expose: ['CatalogService'] }; got ${JSON.stringify(options)}`,
    );
  }
  const path = resolveMcpPath(options.path ?? '/mcp', rpcPath);
  checkStrings('expose', options.expose, 'interface or method names (`CatalogService`, `CartService.addToCart`)');
  checkStrings('allowedOrigins', options.allowedOrigins, 'origins (`https://app.example.com`)');
  for (const origin of options.allowedOrigins ?? []) {
    if (!isOrigin(origin))
      throw new Error(`${PREFIX}.allowedOrigins holds ${JSON.stringify(origin)}, which is no origin (e.g. "https://app.example.com")`);
  }
  const { serverInfo, instructions, pageSize } = options;
  if (serverInfo !== undefined && (typeof serverInfo?.name !== 'string' || typeof serverInfo.version !== 'string')) {
    throw new Error(`${PREFIX}.serverInfo must be { name: string, version: string }, got ${JSON.stringify(serverInfo)}`);
  }
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new Error(`${PREFIX}.instructions must be a string, got ${JSON.stringify(instructions)}`);
  }
  if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1)) {
    throw new Error(`${PREFIX}.pageSize must be a positive whole number, got ${JSON.stringify(pageSize)}`);
  }
  return { ...options, path };
}

/** The path without its trailing slashes; it must start with '/' and leave the JSON-RPC endpoint its own path. */
function resolveMcpPath(path: unknown, rpcPath: string): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new Error(`${PREFIX}.path must start with '/', got ${JSON.stringify(path)}`);
  }
  const resolved = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
  if (resolved === rpcPath) {
    throw new Error(`${PREFIX}.path and rpcPath are both ${JSON.stringify(rpcPath)}; serve MCP and JSON-RPC at two paths`);
  }
  return resolved;
}

function checkStrings(option: string, value: unknown, what: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new Error(`${PREFIX}.${option} must be an array of ${what}, got ${JSON.stringify(value)}`);
  }
}

function isOrigin(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
