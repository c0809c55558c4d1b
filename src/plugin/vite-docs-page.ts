/**
 * The API reference page (docs/docs-page.md) in the Vite dev server and `vite preview`: the
 * runtime's page, with the console pointed at `rpcPath`, the viewer on the served `openapi.json`,
 * the IDL view on the `server.idl` file as written, and the viewer resolved from the project.
 */
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect } from 'vite';
import { createDocsPage } from '../../runtime/docs-page/index.js';
import type { ResolvedOptions } from './options.js';
import { readIdlFile } from './read-idl-file.js';

interface ServerLike {
  config: { root: string };
  middlewares: Connect.Server;
}

/** Adds the page's middleware when `docsPage` is on for this kind of server (dev: default on; preview: opt-in). */
export function useDocsPage(server: ServerLike, options: ResolvedOptions, kind: 'dev' | 'preview'): void {
  const settings = options.docsPage;
  if (settings === false || !settings[kind]) return;
  const root = server.config.root;
  const idlFile = options.server ? path.resolve(root, options.server.idl) : undefined;
  const page = createDocsPage({
    path: settings.path,
    title: settings.title,
    rpcPath: options.rpcPath,
    openApiUrl: options.openapi ? `/${options.openapi.fileName}` : undefined,
    openRpcUrl: options.openrpc ? `/${options.openrpc.fileName}` : undefined,
    // Read on each request, so an edit shows on the next reload.
    idlSource: idlFile ? () => readIdlFile(idlFile, options.maxIdlBytes).catch(() => undefined) : undefined,
    viewerFrom: root,
  });
  // The RPC middleware answers every POST under rpcPath; the page only ever answers GET and HEAD.
  page.mount({ basePath: options.rpcPath, methodNames: [] });
  server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!page.answer(req, res)) next();
  });
}
