/**
 * The page's script (served as a file: the page allows no inline script). Reads its settings from
 * `<body data-…>`, asks the server for its IDL (`rpc-idl`), builds the console and the IDL view,
 * and starts the OpenAPI viewer (Swagger UI, loaded after this module) on the document when it is
 * installed.
 */
import { mountConsole } from './console.js';
import { el } from './dom.js';
import { methodLine, printIdlJson } from './idl-text.js';

const settings = document.body.dataset;
const rpcPath = settings.rpcPath ?? '/';
const consoleRoot = /** @type {HTMLElement} */ (document.querySelector('[data-testid="console"]'));
const status = /** @type {HTMLElement} */ (document.querySelector('[data-testid="console-status"]'));
const idlText = /** @type {HTMLElement} */ (document.querySelector('[data-testid="idl-text"]'));
const idlOrigin = /** @type {HTMLElement} */ (document.querySelector('[data-testid="idl-origin"]'));

start().catch((error) => {
  status.textContent = `The console could not load the IDL from ${rpcPath}: ${error instanceof Error ? error.message : String(error)}`;
  status.classList.add('failed');
});
// The viewer's bundle is a deferred script after this module: it runs after this module and
// before DOMContentLoaded. So the console and the IDL view start without waiting for it, and work
// the same without it (not installed).
if (settings.viewer !== 'missing') {
  if (document.readyState === 'complete') startViewer();
  else document.addEventListener('DOMContentLoaded', startViewer, { once: true });
}

async function start() {
  const idl = await loadIdl();
  status.remove();
  const source = await loadIdlSource();
  const text = source ?? printIdlJson(idl);
  idlOrigin.textContent = source
    ? 'The IDL source the server was given, as written.'
    : 'Printed from the IDL the server answers (rpc-idl): doc comments included, other comments and layout not.';
  const lines = text.replace(/\n$/, '').split('\n');
  const lineElements = lines.map((line) => el('span', { class: 'line' }, `${line}\n`));
  idlText.replaceChildren(...lineElements);
  mountConsole(consoleRoot, {
    idl,
    rpcPath,
    onSelect({ interfaceName, method }) {
      const at = methodLine(lines, interfaceName, method.name);
      for (const [index, line] of lineElements.entries()) line.classList.toggle('selected', index === at);
      if (at !== -1) lineElements[at].scrollIntoView({ block: 'nearest' });
    },
  });
}

/** The IDL as JSON, from the server's own `rpc-idl` method. */
async function loadIdl() {
  const response = await fetch(rpcPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'rpc-idl' }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const answer = await response.json();
  if (answer.error) throw new Error(`${answer.error.code} ${answer.error.message}`);
  return answer.result;
}

/** The IDL source as written, when the server has it (`<page>/idl`); undefined otherwise. */
async function loadIdlSource() {
  if (!settings.idlUrl) return undefined;
  const response = await fetch(settings.idlUrl);
  return response.ok ? response.text() : undefined;
}

/** Swagger UI on the OpenAPI document: no validator badge (it would load an image from validator.swagger.io). */
function startViewer() {
  const target = /** @type {HTMLElement} */ (document.getElementById('reference'));
  const SwaggerUIBundle = /** @type {any} */ (window).SwaggerUIBundle;
  if (typeof SwaggerUIBundle !== 'function') {
    target.textContent = 'The OpenAPI viewer (swagger-ui-dist) did not load.';
    return;
  }
  SwaggerUIBundle({
    url: settings.openapiUrl,
    domNode: target,
    validatorUrl: null,
    deepLinking: false,
    // The console sends the calls; the viewer only shows the reference.
    supportedSubmitMethods: [],
    defaultModelsExpandDepth: 1,
    defaultModelExpandDepth: 3,
    docExpansion: 'list',
  });
}
