/**
 * The command table of `idlrpc`. To add a command: write `src/cli/commands/<name>.ts` exporting a
 * `Command`, import it here and add it to the list (the order is the order of `-help`).
 */
import type { Command } from '../command.js';
import { breakingCommand } from './breaking.js';
import { conformCommand } from './conform.js';
import { dtsCommand } from './dts.js';
import { formatCommand } from './format.js';
import { generateCommand } from './generate.js';
import { helpCommand } from './help.js';
import { idlToOpenApiCommand } from './idl-to-openapi.js';
import { idlToOpenRpcCommand } from './idl-to-openrpc.js';
import { lspCommand } from './lsp.js';
import { mcpStdioCommand } from './mcp-stdio.js';
import { openApiToIdlCommand } from './openapi-to-idl.js';
import { openRpcToIdlCommand } from './openrpc-to-idl.js';
import { toJsonCommand } from './to-json.js';
import { validateCommand } from './validate.js';
import { versionCommand } from './version.js';

export const commands: readonly Command[] = [
  generateCommand,
  validateCommand,
  toJsonCommand,
  formatCommand,
  breakingCommand,
  openApiToIdlCommand,
  idlToOpenApiCommand,
  idlToOpenRpcCommand,
  openRpcToIdlCommand,
  dtsCommand,
  lspCommand,
  mcpStdioCommand,
  versionCommand,
  helpCommand,
  conformCommand,
];
