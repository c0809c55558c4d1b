/**
 * `unplugin-idl-rpc/runtime/mcp`: the MCP binding (docs/mcp.md). Its own entry, so an app that
 * does not mount it ships none of its code:
 * `createRpcServer({ idl, handlers, mcp: mcpBinding({ expose: ['CatalogService'] }) })`.
 */
export { mcpBinding, type McpOptions } from './mcp-binding.js';
export type { McpServerInfo } from './mcp-messages.js';
export type { McpResources } from './resources.js';
export { LATEST_PROTOCOL_VERSION, PROTOCOL_VERSIONS, type ProtocolVersion } from './protocol-version.js';
export { type McpStdioOptions, serveMcpStdio } from './stdio.js';
