/**
 * One start-up of the mcp suite (mcp.mjs): imports the built runtime (and, given `mcp`, the MCP
 * binding's entry), creates the checkout server from its IDL JSON (argv[2]) and prints the CPU
 * milliseconds that took. Node's own start is left out: it is the same with and without MCP.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [idlFile, variant] = process.argv.slice(2);
const dist = path.join(import.meta.dirname, '..', '..', 'dist', 'runtime');
const before = process.cpuUsage();
const { createRpcServer } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const idl = JSON.parse(readFileSync(idlFile, 'utf8'));
const handlers = { CatalogService: { listProducts: () => [], getProduct: () => null } };
let mcp;
if (variant === 'mcp') {
  const { mcpBinding } = await import(pathToFileURL(path.join(dist, 'mcp', 'index.js')).href);
  mcp = mcpBinding({ expose: ['CatalogService'] });
}
createRpcServer({ idl, handlers, mcp });
const spent = process.cpuUsage(before);
console.log(((spent.user + spent.system) / 1000).toFixed(3));
