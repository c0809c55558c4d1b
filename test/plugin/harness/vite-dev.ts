/**
 * A Vite dev server on a copy of the fixture app, with the plugin, on 127.0.0.1 and a free port.
 */
import type { AddressInfo } from 'node:net';
import type { Plugin, ViteDevServer } from 'vite';
import idlRpc from '../../../src/plugin/vite.js';
import type { IdlRpcPluginOptions } from '../../../src/plugin/options.js';

/**
 * Starts the server; `base` is `http://127.0.0.1:<port>`. The caller closes it. `plugin` makes the
 * plugin (default: from the sources; an installed copy, see installed-package.ts).
 */
export async function startViteDevServer(
  root: string,
  options?: IdlRpcPluginOptions,
  plugin: (options?: IdlRpcPluginOptions) => Plugin = idlRpc,
): Promise<{ server: ViteDevServer; base: string }> {
  const { createServer } = await import('vite');
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
    plugins: [plugin(options)],
  });
  await server.listen();
  const { port } = server.httpServer!.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}` };
}
