/**
 * The checkout service for AI agents: the MCP binding of the standalone server (docs/mcp.md,
 * "The playground"), on `POST /mcp`.
 */
/// <reference types="vite/client" />
import { mcpBinding } from 'unplugin-idl-rpc/runtime/mcp';
// The IDL's text, inside the server bundle (Vite's `?raw`; the IDL plugin leaves such imports to Vite).
import idlSource from '../checkout.idl?raw';
import { checkoutMcpTools } from './mcp-tools.js';

export interface CheckoutMcpOptions {
  /** The standalone server's `corsOrigins`: the origins listed may also reach the tools; `'*'` opens none more. */
  corsOrigins?: readonly string[] | '*';
  /** Offered as resources beside the IDL source, when given. */
  openApiDocument?: object;
  openRpcDocument?: object;
}

/**
 * The MCP binding of the checkout service: its tools, and its IDL source and documents as resources.
 *
 * Pages on the `corsOrigins` may call the JSON-RPC service, so they may call the tools too. `'*'`
 * lets any page call the service, but not the tools: the binding's Origin check against DNS
 * rebinding keeps refusing origins that are neither loopback nor listed.
 */
export function checkoutMcp(options: CheckoutMcpOptions = {}): ReturnType<typeof mcpBinding> {
  return mcpBinding({
    ...checkoutMcpTools,
    allowedOrigins: options.corsOrigins === '*' ? undefined : options.corsOrigins,
    resources: { idl: idlSource, openApi: options.openApiDocument, openRpc: options.openRpcDocument },
  });
}

/** `PLAYGROUND_MCP` (`on` or `off`) as the `mcp` option; undefined when unset or empty. Throws on anything else. */
export function mcpFromEnvironment(text: string | undefined): boolean | undefined {
  const value = (text ?? '').trim().toLowerCase();
  if (value === '') return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`PLAYGROUND_MCP must be on or off, got ${JSON.stringify(text)}`);
}
