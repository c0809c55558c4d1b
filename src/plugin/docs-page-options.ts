/**
 * The plugin's `docsPage` option: the API reference page with its console (docs/docs-page.md) in
 * the Vite dev server (on by default) and `vite preview` (opt-in, like production).
 */

/** Where and when the Vite dev and preview servers serve the API reference page. */
export interface DocsPagePluginOptions {
  /** Where the page is served. Default `/__idl/docs`. */
  path?: string;
  /** The page's title. Default `API reference`. */
  title?: string;
  /** Serve it in the Vite dev server. Default true. */
  dev?: boolean;
  /** Serve it in `vite preview` too (a production build). Default false. */
  preview?: boolean;
}

export interface ResolvedDocsPageOptions {
  path: string;
  title: string;
  dev: boolean;
  preview: boolean;
}

/** `docsPage` with its defaults: `true` or absent is the dev server only, `false` neither. */
export function resolveDocsPageOptions(option: boolean | DocsPagePluginOptions | undefined): ResolvedDocsPageOptions | false {
  if (option === false) return false;
  const given = option === true || option === undefined ? {} : option;
  if (typeof given !== 'object' || given === null) {
    throw new Error(`unplugin-idl-rpc: docsPage must be true, false or { path?, title?, dev?, preview? }, got ${JSON.stringify(option)}`);
  }
  return {
    path: given.path ?? '/__idl/docs',
    title: given.title ?? 'API reference',
    dev: given.dev ?? true,
    preview: given.preview ?? false,
  };
}
