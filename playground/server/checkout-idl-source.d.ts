/** The text of checkout.idl, given by the `checkout-idl-source` plugin of vite.config.ts. */
declare module 'virtual:checkout-idl-source' {
  const source: string;
  export default source;
}
