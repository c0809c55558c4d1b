/**
 * The HTML of the page: a shell without any inline script or style. The page's script reads where
 * to send calls and where the documents are from `data-` attributes of `<body>`.
 */
import { VIEWER_PACKAGE } from './page-files.js';

/** What the page needs to know about the server it documents. */
export interface PageSettings {
  /** The page's own path (its files are below it). */
  path: string;
  title: string;
  /** Where JSON-RPC calls go; the REST binding is below it. */
  rpcPath: string;
  /** Where the OpenAPI document is served. */
  openApiUrl: string;
  /** Where the OpenRPC document is served. */
  openRpcUrl: string;
  /** Whether `<path>/idl` serves the IDL source (else the page prints it from `rpc-idl`). */
  hasIdlSource: boolean;
  /** Whether the viewer (`swagger-ui-dist`) is installed; without it the reference says what to install. */
  hasViewer: boolean;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The page: console and IDL side by side, the OpenAPI reference below them. The page's script
 * comes before the viewer's, so the console and the IDL start without waiting for the viewer's
 * bundle (the script starts the viewer once the document, and so that bundle, has loaded).
 */
export function pageHtml(settings: PageSettings): string {
  const at = (file: string) => escapeHtml(`${settings.path}/${file}`);
  const viewerFiles = settings.hasViewer ? `<link rel="stylesheet" href="${at('viewer/swagger-ui.css')}">\n` : '';
  const viewerScript = settings.hasViewer ? `\n<script defer src="${at('viewer/swagger-ui-bundle.js')}"></script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(settings.title)}</title>
${viewerFiles}<link rel="stylesheet" href="${at('assets/docs.css')}">
<script type="module" src="${at('assets/docs.js')}"></script>${viewerScript}
</head>
<body data-rpc-path="${escapeHtml(settings.rpcPath)}" data-openapi-url="${escapeHtml(settings.openApiUrl)}"${settings.hasIdlSource ? ` data-idl-url="${at('idl')}"` : ''}${settings.hasViewer ? '' : ' data-viewer="missing"'}>
<header class="page-header"><h1>${escapeHtml(settings.title)}</h1><p>JSON-RPC at <code>${escapeHtml(settings.rpcPath)}</code>, REST binding at <code>${escapeHtml(settings.rpcPath.replace(/\/$/, ''))}/&lt;Interface&gt;/&lt;method&gt;</code>, <a href="${escapeHtml(settings.openApiUrl)}">OpenAPI document</a>, <a href="${escapeHtml(settings.openRpcUrl)}">OpenRPC document</a></p></header>
<main class="workbench">
<section class="console" aria-labelledby="console-title" data-testid="console">
<h2 id="console-title">Console</h2>
<p class="status" data-testid="console-status">Loading the IDL from the server…</p>
</section>
<section class="idl" aria-labelledby="idl-title">
<h2 id="idl-title">IDL</h2>
<p class="idl-origin" data-testid="idl-origin"></p>
<pre class="idl-text" data-testid="idl-text"></pre>
</section>
</main>
<section class="reference" aria-labelledby="reference-title">
<h2 id="reference-title">Reference</h2>
<div id="reference" data-testid="reference">${settings.hasViewer ? '' : viewerMissingHtml()}</div>
</section>
</body>
</html>
`;
}

/** The reference without the viewer: what to install (reload the page afterwards; no restart). */
function viewerMissingHtml(): string {
  return `<div class="viewer-missing" data-testid="viewer-missing">
<p>The reference shows the OpenAPI document with Swagger UI, served from your own <code>node_modules</code>
(nothing is loaded from the network). Install it beside unplugin-idl-rpc, then reload this page:</p>
<pre>npm install ${VIEWER_PACKAGE}</pre>
<p>It is an optional peer dependency: nothing of it goes into your app's bundle.</p>
</div>`;
}
