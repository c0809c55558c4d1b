// Runs during SSR (and on client-side navigation): calls the endpoint over HTTP with SvelteKit's fetch.
import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
import { GreeterServiceClient } from '$lib/greeter.idl';

export async function load({ fetch, url }: { fetch: typeof globalThis.fetch; url: URL }) {
  const client = new GreeterServiceClient(new HttpTransport(`${url.origin}/rpc`, { fetch }));
  return { ssrGreeting: await client.greet('ssr') };
}
