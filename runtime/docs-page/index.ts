/**
 * `unplugin-idl-rpc/runtime/docs-page`: the API reference page with a live console
 * (docs/docs-page.md). Not part of the runtime copied into generated packages; it reads its files
 * and the optional viewer (`swagger-ui-dist`) from disk at run time.
 */
export { DOCS_PAGE_CSP } from './content-security-policy.js';
export { type DocsPage, type DocsPageOptions, createDocsPage } from './docs-page.js';
export { type BindingPaths, checkDocsPath, DEFAULT_DOCS_PATH } from './docs-path.js';
