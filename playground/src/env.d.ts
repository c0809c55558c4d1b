/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the page sends its JSON-RPC calls; `/rpc` on the page's own origin by default. */
  readonly VITE_RPC_URL?: string;
}
